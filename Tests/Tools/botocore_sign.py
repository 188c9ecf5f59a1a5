"""Signs requests with botocore at a fixed moment, for comparison with My Day's own SigV4 signer.

Reads a JSON list of requests from the file named first and prints, as JSON, botocore's answer for each: the
presigned URL (style "query") or the headers it adds (style "header").
"""

import datetime
import json
import sys

import botocore.auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials


def sign(case: dict) -> dict:
    moment = datetime.datetime.strptime(case["date"], "%Y%m%dT%H%M%SZ")
    botocore.auth.get_current_datetime = lambda *args, **kwargs: moment
    credentials = Credentials(case["access_key"], case["secret_key"], case.get("token"))
    request = AWSRequest(
        method=case["method"], url=case["url"], headers=dict(case["headers"]), data=case.get("body", "").encode()
    )
    if case["style"] == "query":
        botocore.auth.S3SigV4QueryAuth(credentials, "s3", case["region"], expires=case["expires"]).add_auth(request)
        return {"url": request.url}
    botocore.auth.S3SigV4Auth(credentials, "s3", case["region"]).add_auth(request)
    return {"headers": {name: value for name, value in request.headers.items()}}


if __name__ == "__main__":
    with open(sys.argv[1]) as cases:
        print(json.dumps([sign(case) for case in json.load(cases)]))
