"""An S3-compatible bucket on a loopback port for the tests: moto's S3 server, checking every signature.

moto checks header-signed requests itself once an IAM user, an access key and a policy exist (it lets the first few
requests through unsigned to make them). It cannot check presigned URLs, so a small front on the port the tests use
checks those with botocore's own signer (signature, signed headers, expiry), then sends them on to moto signed in
headers; header-signed requests pass through to moto unchanged, Host header and all. moto ignores Content-MD5, so the
front checks it as S3 does (400 BadDigest), and it answers browsers' CORS preflights from the bucket's CORS rules
(moto, checking signatures, refuses them).

Prints "ready PORT BUCKET ACCESS_KEY SECRET_KEY" once the bucket exists; runs until its standard input closes. With
--without-delete-objects it refuses DeleteObjects as a service without it does.
"""

import base64
import datetime
import hashlib
import http.client
import json
import os
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SETUP_REQUESTS = 4
# --without-delete-objects answers DeleteObjects as Google Cloud Storage's XML API long did: 501 NotImplemented.
WITHOUT_DELETE_OBJECTS = "--without-delete-objects" in sys.argv
os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = str(SETUP_REQUESTS)

import boto3  # noqa: E402
import botocore.auth  # noqa: E402
from botocore.awsrequest import AWSRequest  # noqa: E402
from botocore.credentials import Credentials  # noqa: E402
from moto.server import ThreadedMotoServer  # noqa: E402

BUCKET = "myday-test"
REGION = "us-east-1"
AUTH_PARAMETERS = {
    "X-Amz-Algorithm",
    "X-Amz-Credential",
    "X-Amz-Date",
    "X-Amz-Expires",
    "X-Amz-SignedHeaders",
    "X-Amz-Security-Token",
    "X-Amz-Signature",
}
signing_lock = threading.Lock()
moto_lock = threading.Lock()


def error(code: str, message: str) -> bytes:
    return f"<?xml version='1.0' encoding='UTF-8'?><Error><Code>{code}</Code><Message>{message}</Message></Error>".encode()


class Front(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    moto_port = 0
    credentials: Credentials

    def log_message(self, format: str, *args: object) -> None:
        pass

    def handle_any(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        path, _, query = self.path.partition("?")
        pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
        params = dict(pairs)
        digest = self.headers.get("Content-MD5")
        if digest is not None and base64.b64encode(hashlib.md5(body).digest()).decode() != digest:
            self.answer(400, {"Content-Type": "application/xml"}, error("BadDigest", "The Content-MD5 does not match."))
        elif WITHOUT_DELETE_OBJECTS and self.command == "POST" and "delete" in params:
            self.answer(501, {"Content-Type": "application/xml"}, error("NotImplemented", "DeleteObjects is not offered."))
        elif "X-Amz-Signature" in params:
            problem = self.presign_problem(path, pairs, params)
            if problem:
                self.answer(403, {"Content-Type": "application/xml"}, error(*problem))
                return
            self.forward_resigned(path, [(k, v) for k, v in pairs if k not in AUTH_PARAMETERS], body)
        elif "Signature" in params or "AWSAccessKeyId" in params:
            self.answer(403, {"Content-Type": "application/xml"}, error("AccessDenied", "Only SigV4 is accepted here."))
        else:
            self.forward(self.command, self.path, dict(self.headers.items()), body)

    def presign_problem(self, path: str, pairs: list, params: dict) -> tuple | None:
        """Why a presigned request must be refused, checked with botocore; None when it is genuine and in time."""
        access_key, day, region, service, _ = params.get("X-Amz-Credential", "////").split("/", 4)
        if access_key != self.credentials.access_key or service != "s3":
            return ("InvalidAccessKeyId", "The access key is not known here.")
        moment = datetime.datetime.strptime(params["X-Amz-Date"], "%Y%m%dT%H%M%SZ")
        expires = int(params["X-Amz-Expires"])
        if not 1 <= expires <= 604800:
            return ("AuthorizationQueryParametersError", "X-Amz-Expires must be 1 to 604800 seconds.")
        if datetime.datetime.utcnow() > moment + datetime.timedelta(seconds=expires):
            return ("AccessDenied", "Request has expired")
        signed = params["X-Amz-SignedHeaders"].split(";")
        headers = {name: self.headers[name] for name in signed if name != "host" and self.headers[name] is not None}
        operation = urllib.parse.urlencode([(k, v) for k, v in pairs if k not in AUTH_PARAMETERS], quote_via=urllib.parse.quote)
        url = f"http://{self.headers['Host']}{path}" + (f"?{operation}" if operation else "")
        request = AWSRequest(method=self.command, url=url, headers=headers)
        with signing_lock:
            botocore.auth.get_current_datetime = lambda *args, **kwargs: moment
            botocore.auth.S3SigV4QueryAuth(self.credentials, "s3", region, expires=expires).add_auth(request)
        expected = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(request.url).query, keep_blank_values=True))
        if expected.get("X-Amz-SignedHeaders") != params["X-Amz-SignedHeaders"]:
            return ("SignatureDoesNotMatch", "A signed header is missing from the request.")
        if expected.get("X-Amz-Signature") != params["X-Amz-Signature"]:
            return ("SignatureDoesNotMatch", "The request signature does not match.")
        return None

    def forward_resigned(self, path: str, operation: list, body: bytes) -> None:
        query = urllib.parse.urlencode(operation, quote_via=urllib.parse.quote)
        target = path + (f"?{query}" if query else "")
        kept = {
            name: value
            for name, value in self.headers.items()
            if name.lower() in ("content-type", "content-length", "range", "content-md5")
        }
        request = AWSRequest(method=self.command, url=f"http://127.0.0.1:{self.moto_port}{target}", headers=kept, data=body)
        with signing_lock:
            botocore.auth.get_current_datetime = lambda *args, **kwargs: datetime.datetime.utcnow()
            botocore.auth.S3SigV4Auth(self.credentials, "s3", REGION).add_auth(request)
        headers = dict(request.headers.items())
        headers["Host"] = f"127.0.0.1:{self.moto_port}"
        self.forward(self.command, target, headers, body)

    def forward(self, method: str, target: str, headers: dict, body: bytes) -> None:
        # One request at a time reaches moto (the body is already read): its in-memory bucket is not safe to list
        # while another thread deletes from it, and answers 500 when that happens.
        with moto_lock:
            connection = http.client.HTTPConnection("127.0.0.1", self.moto_port, timeout=120)
            connection.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
            for name, value in headers.items():
                if name.lower() not in ("connection", "transfer-encoding", "expect"):
                    connection.putheader(name, value)
            connection.endheaders(body)
            response = connection.getresponse()
            payload = response.read()
        answer = {name: value for name, value in response.getheaders() if name.lower() not in ("connection", "transfer-encoding")}
        if method != "HEAD":
            answer["Content-Length"] = str(len(payload))
        self.answer(response.status, answer, payload if method != "HEAD" else b"")
        connection.close()

    def answer(self, status: int, headers: dict, body: bytes) -> None:
        rule = self.cors_rule(self.command) if self.command != "OPTIONS" else None
        if rule is not None:
            headers = dict(headers)
            headers["Access-Control-Allow-Origin"] = self.headers["Origin"]
            headers["Access-Control-Expose-Headers"] = ", ".join(rule.get("ExposeHeaders", []))
            headers["Vary"] = "Origin"
        self.send_response(status)
        for name, value in headers.items():
            if name.lower() not in ("server", "date"):
                self.send_header(name, value)
        if "Content-Length" not in headers and "content-length" not in headers:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_OPTIONS(self) -> None:
        """A browser's CORS preflight, answered from the bucket's CORS rules as S3 does (moto, checking signatures,
        cannot: a preflight carries none)."""
        rule = self.cors_rule(self.headers.get("Access-Control-Request-Method", ""))
        requested = [h.strip().lower() for h in self.headers.get("Access-Control-Request-Headers", "").split(",") if h.strip()]
        allowed = [h.lower() for h in (rule or {}).get("AllowedHeaders", [])]
        if rule is None or any(h not in allowed and "*" not in allowed for h in requested):
            self.answer(403, {"Content-Type": "application/xml"}, error("AccessForbidden", "CORSResponse: not allowed."))
            return
        self.answer(200, {
            "Access-Control-Allow-Origin": self.headers["Origin"],
            "Access-Control-Allow-Methods": ", ".join(rule["AllowedMethods"]),
            "Access-Control-Allow-Headers": ", ".join(requested),
            "Access-Control-Max-Age": str(rule.get("MaxAgeSeconds", 0)),
            "Vary": "Origin, Access-Control-Request-Headers, Access-Control-Request-Method",
        }, b"")

    def cors_rule(self, method: str) -> dict | None:
        """The bucket's first CORS rule that lets this request's Origin use `method`."""
        origin = self.headers.get("Origin")
        if not origin:
            return None
        bucket = self.path.split("?")[0].split("/")[1]
        try:
            with moto_lock:
                rules = self.storage.get_bucket_cors(Bucket=bucket)["CORSRules"]
        except Exception:
            return None
        for rule in rules:
            if (origin in rule["AllowedOrigins"] or "*" in rule["AllowedOrigins"]) and method in rule["AllowedMethods"]:
                return rule
        return None

    do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = handle_any


def main() -> None:
    moto = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    moto.start()
    moto_port = moto._server.server_port
    endpoint = f"http://127.0.0.1:{moto_port}"
    iam = boto3.client(
        "iam", endpoint_url=endpoint, region_name=REGION, aws_access_key_id="setup", aws_secret_access_key="setup"
    )
    iam.create_user(UserName="myday")
    policy = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}
    iam.put_user_policy(UserName="myday", PolicyName="everything", PolicyDocument=json.dumps(policy))
    key = iam.create_access_key(UserName="myday")["AccessKey"]
    credentials = Credentials(key["AccessKeyId"], key["SecretAccessKey"])
    boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name=REGION,
        aws_access_key_id=credentials.access_key,
        aws_secret_access_key=credentials.secret_key,
    ).create_bucket(Bucket=BUCKET)
    Front.moto_port = moto_port
    Front.credentials = credentials
    Front.storage = boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name=REGION,
        aws_access_key_id=credentials.access_key,
        aws_secret_access_key=credentials.secret_key,
    )
    front = ThreadingHTTPServer(("127.0.0.1", 0), Front)
    front.daemon_threads = True
    threading.Thread(target=front.serve_forever, daemon=True).start()
    print(f"ready {front.server_port} {BUCKET} {credentials.access_key} {credentials.secret_key}", flush=True)
    sys.stdin.read()
    front.shutdown()
    moto.stop()


if __name__ == "__main__":
    main()
