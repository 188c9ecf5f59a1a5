"""My Day beyond one machine, on loopback: PostgreSQL, an S3-compatible bucket, API nodes behind nginx (the
configuration in deploy/nginx/myday.conf, with TLS) and worker processes started as deploy/systemd's units start them,
driven by many clients at once while processes are killed with SIGKILL and started again. Shared by the scale-out test
(small) and bench/scaleout (large).

Every process runs from the build under test (MYDAY_SERVER_BINARY, or .build/debug/myday-server); PostgreSQL is the
one MYDAY_TEST_POSTGRES_URL names (scripts/with-postgres starts it).
"""

import http.client
import io
import json
import os
import re
import shlex
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
import zipfile
from collections import Counter
from dataclasses import dataclass, field

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEADLINE = 180
# Where the units expect the binary (docs/deploy.md); the build under test stands in for it.
INSTALLED_BINARY = "/usr/local/bin/myday-server"
# Housekeeping aborts multipart uploads begun longer ago than this (HousekeepingService.abandonedWriteAge).
ABANDONED_WRITE_AGE = 24 * 3600


def poll(condition, timeout=DEADLINE, message="condition not met", every=0.1):
    """Waits until `condition()` is true; raises naming `message` if it never is."""
    end = time.monotonic() + timeout
    while True:
        if condition():
            return
        if time.monotonic() > end:
            raise TimeoutError(message)
        time.sleep(every)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def peak_rss_mb(pid):
    """The process's peak resident set (VmHWM), in MB; None once it has gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except FileNotFoundError:
        return None
    return None


def answers(port, context=None, path="/readyz"):
    """Whether a server on this loopback port answers 200 (over TLS with `context`)."""
    try:
        connection = (
            http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=5)
            if context else http.client.HTTPConnection("127.0.0.1", port, timeout=5))
        connection.request("GET", path)
        ok = connection.getresponse().status == 200
        connection.close()
        return ok
    except OSError:
        return False


def unread_requests(port):
    """Connections to this local port holding bytes its server has not read yet (from /proc/net/tcp)."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        with open(table) as rows:
            for row in list(rows)[1:]:
                _, local, _, state, queues = row.split()[:5]
                if state == "01" and int(local.rsplit(":", 1)[1], 16) == port and int(queues.split(":")[1], 16) > 0:
                    count += 1
    return count


def psql(url, query):
    """Rows of a query, run with Debian's psql, as lists of strings."""
    out = subprocess.run(["psql", url, "-AtF", "\t", "-c", query], check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]


def unit_commands(unit, binary):
    """The ExecStartPre commands and the ExecStart command of deploy/systemd/<unit>, as argument lists, with `binary`
    for the installed one. A `/usr/bin/env NAME=value` prefix is kept, and so run."""
    commands = {"ExecStartPre": [], "ExecStart": []}
    with open(os.path.join(ROOT, "deploy/systemd", unit)) as source:
        for line in source:
            key, _, value = line.strip().partition("=")
            if key in commands:
                argv = [binary if word == INSTALLED_BINARY else word for word in shlex.split(value)]
                assert binary in argv, f"{unit}: {key} does not run {INSTALLED_BINARY}: {value}"
                commands[key].append(argv)
    assert len(commands["ExecStart"]) == 1, f"{unit} has not exactly one ExecStart"
    return commands["ExecStartPre"], commands["ExecStart"][0]


class Process:
    """One myday-server, nginx or bucket process, with its log and its peak memory remembered across restarts. Like
    systemd, each start first runs the `before` commands (ExecStartPre), each of which must succeed."""

    def __init__(self, name, command, env, log_dir, before=(), cwd=None):
        self.name, self.command, self.env, self.before, self.cwd = name, command, env, before, cwd
        self.log_path = os.path.join(log_dir, f"{name}.log")
        self.peak_mb = 0.0
        self.popen = None
        self.pids = []

    def start(self):
        with open(self.log_path, "ab") as log:
            for command in self.before:
                done = subprocess.run(command, env=self.env, cwd=self.cwd, stdout=log, stderr=subprocess.STDOUT)
                assert done.returncode == 0, f"{self.name}: {shlex.join(command)} failed:\n{self.tail()}"
            self.popen = subprocess.Popen(
                self.command, env=self.env, cwd=self.cwd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.PIPE)
        self.pids.append(self.popen.pid)

    def sample(self):
        if self.popen and self.popen.poll() is None:
            self.peak_mb = max(self.peak_mb, peak_rss_mb(self.popen.pid) or 0)

    def signal(self, number):
        self.popen.send_signal(number)

    def kill(self):
        """SIGKILL: no draining, no goodbye."""
        self.sample()
        self.popen.send_signal(signal.SIGKILL)
        self.popen.wait()

    def stop(self):
        if self.popen and self.popen.poll() is None:
            self.sample()
            self.popen.send_signal(signal.SIGCONT)
            self.popen.terminate()
            try:
                self.popen.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()

    def tail(self, lines=40):
        try:
            with open(self.log_path, errors="replace") as log:
                return "".join(log.readlines()[-lines:])
        except FileNotFoundError:
            return ""


def render_nginx(site, listen_port, upstream_ports, certificate, key, http_port):
    """deploy/nginx/myday.conf for loopback: these ports, these API nodes, this certificate. Everything else is the file
    as operators install it, the redirect from plain http included."""
    # The file names the operator's nodes (10.0.0.x:8080); here they are loopback ports. The options stay the file's.
    options = re.search(r"upstream myday_api \{\n(?:\s*#.*\n)*\s*server \S+ ([^;\n]*);", site)
    assert options, "no upstream myday_api block with server lines"
    servers = "".join(f"    server 127.0.0.1:{port} {options.group(1)};\n" for port in upstream_ports)
    site, count = re.subn(r"(upstream myday_api \{\n(?:\s*#.*\n)*)(?:\s*server [^\n]+\n)+", r"\g<1>" + servers, site)
    assert count == 1, "no upstream myday_api block with server lines"
    # Ports 80 and 443 on every address become free loopback ports; IPv6 may be off here, so its lines go.
    site = re.sub(r"\n\s*listen \[::\]:[^;]*;", "", site)
    site, count = re.subn(r"listen 443 ssl", f"listen 127.0.0.1:{listen_port} ssl", site)
    assert count == 1, "no 'listen 443 ssl'"
    site, count = re.subn(r"listen 80;", f"listen 127.0.0.1:{http_port};", site)
    assert count == 1 and "return 301 https://" in site, "the site no longer redirects http to https"
    site = re.sub(r"ssl_certificate [^;]+;", f"ssl_certificate {certificate};", site)
    site = re.sub(r"ssl_certificate_key [^;]+;", f"ssl_certificate_key {key};", site)
    return site


@dataclass
class Settings:
    api_nodes: int = 2
    workers: int = 2
    worker_slots: int = 2
    clients: int = 6
    entries_per_client: int = 4
    # After this many uploads have been completed, one API node is killed mid-request and started again. A worker is
    # killed, and started again, as soon as it is building an export.
    kill_after: int = 8


class System:
    """The processes of one setup, by name: their peak memory sampled, stopped together (the bucket last)."""

    processes: dict

    def sample(self):
        for process in self.processes.values():
            process.sample()

    def stop(self):
        for name in sorted(self.processes, key=lambda n: n == "bucket"):
            self.processes[name].stop()


class Cluster(System):
    """PostgreSQL (a fresh database), the bucket, API nodes, nginx in front of them, and workers."""

    def __init__(self, settings: Settings, workdir: str):
        self.settings = settings
        self.workdir = workdir
        self.binary = os.environ.get("MYDAY_SERVER_BINARY", os.path.join(ROOT, ".build/debug/myday-server"))
        admin = os.environ["MYDAY_TEST_POSTGRES_URL"]
        name = "myday_scale_" + uuid.uuid4().hex[:10]
        psql(admin, f"CREATE DATABASE {name}")
        self.database_url = admin.rsplit("/", 1)[0] + "/" + name
        self.processes = {}
        self.secret = uuid.uuid4().hex + uuid.uuid4().hex
        self.prefix = f"scale-{uuid.uuid4().hex[:8]}/"
        # Every process seen holding a running job.
        self.job_holders = set()

    # ---- starting

    def start(self):
        self._start_bucket()
        self._make_certificate()
        self.proxy_port, self.http_port = free_port(), free_port()
        self.public_url = f"https://127.0.0.1:{self.proxy_port}"
        self.api_ports = [free_port() for _ in range(self.settings.api_nodes)]
        before, command = unit_commands("myday-server.service", self.binary)
        for index, port in enumerate(self.api_ports):
            self._start(f"api-{index}", command, self._env(f"api-{index}", MYDAY_PORT=str(port)), before)
        for index in range(self.settings.api_nodes):
            self.wait_until_ready(f"api-{index}")
        self._start_nginx()
        before, command = unit_commands("myday-worker.service", self.binary)
        for index in range(self.settings.workers):
            self._start(f"worker-{index}", command, self._env(f"worker-{index}"), before)

    def _start_bucket(self):
        python = os.path.join(ROOT, ".build/python/bin/python")
        bucket = Process("bucket", [python, os.path.join(ROOT, "Tests/Tools/s3_server.py")], dict(os.environ), self.workdir)
        bucket.log_path = os.path.join(self.workdir, "bucket.out")
        bucket.popen = subprocess.Popen(bucket.command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.PIPE, text=True)
        ready = bucket.popen.stdout.readline().split()
        assert ready and ready[0] == "ready", f"the bucket did not start: {ready}"
        _, port, self.bucket_name, self.access_key, self.secret_key = ready
        self.bucket_endpoint = f"http://127.0.0.1:{port}"
        self.processes["bucket"] = bucket

    def _make_certificate(self):
        self.certificate = os.path.join(self.workdir, "cert.pem")
        self.key = os.path.join(self.workdir, "key.pem")
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", self.key, "-out", self.certificate,
             "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
            check=True, capture_output=True)

    def _start_nginx(self):
        folder = os.path.join(self.workdir, "nginx")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(ROOT, "deploy/nginx/myday.conf")) as source:
            site = render_nginx(
                source.read(), self.proxy_port, self.api_ports, self.certificate, self.key, self.http_port)
        with open(os.path.join(folder, "myday.conf"), "w") as out:
            out.write(site)
        temp = "".join(f"    {kind}_temp_path {folder}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        user = "user root;\n" if os.geteuid() == 0 else ""
        with open(os.path.join(folder, "nginx.conf"), "w") as out:
            out.write(
                f"{user}worker_processes 1;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log warn;\n"
                f"events {{ worker_connections 2048; }}\n"
                f"http {{\n    access_log off;\n{temp}    include {folder}/myday.conf;\n}}\n")
        command = ["nginx", "-p", folder, "-c", os.path.join(folder, "nginx.conf"), "-g", "daemon off;"]
        self._start("nginx", command, dict(os.environ))
        nginx = self.processes["nginx"]
        poll(lambda: nginx.popen.poll() is not None or answers(self.proxy_port, self.tls()), 30, "nginx never answered")
        assert nginx.popen.poll() is None, f"nginx stopped:\n{open(os.path.join(folder, 'error.log')).read()}"
        plain = http.client.HTTPConnection("127.0.0.1", self.http_port, timeout=10)
        plain.request("GET", "/readyz")
        answer = plain.getresponse()
        redirect = (answer.status, answer.getheader("Location"))
        assert redirect == (301, "https://127.0.0.1/readyz"), f"plain http answered {redirect}"
        plain.close()

    def _env(self, name, **extra):
        """What /etc/myday/myday.env holds, the same for every node, but for a port and a data folder of its own."""
        data = os.path.join(self.workdir, name)
        os.makedirs(data, exist_ok=True)
        env = {
            "PATH": os.environ.get("PATH", ""),
            "MYDAY_DATA_DIR": data,
            "MYDAY_DATABASE_URL": self.database_url,
            "MYDAY_SECRET": self.secret,
            "MYDAY_SPEECH_SERVICE": "off",
            "MYDAY_LOG_LEVEL": "warning",
            # For the workers; the API unit sets 0 whatever this says.
            "MYDAY_WORKERS": str(self.settings.worker_slots),
            "MYDAY_S3_BUCKET": self.bucket_name,
            "MYDAY_S3_ENDPOINT": self.bucket_endpoint,
            "MYDAY_S3_REGION": "us-east-1",
            "MYDAY_S3_ACCESS_KEY_ID": self.access_key,
            "MYDAY_S3_SECRET_ACCESS_KEY": self.secret_key,
            "MYDAY_S3_PREFIX": self.prefix,
            "MYDAY_PUBLIC_URL": self.public_url,
            "MYDAY_TRUSTED_PROXY_HOPS": "1",
            # Many clients from one address: the limits are not what this run measures.
            "MYDAY_RATE_LIMIT_AUTH_PER_MINUTE": "100000",
            "MYDAY_RATE_LIMIT_REFRESH_PER_MINUTE": "100000",
            "MYDAY_RATE_LIMIT_ENTRIES_PER_MINUTE": "100000",
            "MYDAY_RATE_LIMIT_UPLOADS_PER_MINUTE": "100000",
            "MYDAY_RATE_LIMIT_EXPORTS_PER_MINUTE": "100000",
            # Jobs whose worker was killed are taken over soon.
            "MYDAY_JOB_LEASE_SECONDS": "5",
        }
        env.update(extra)
        return env

    def _start(self, name, command, env, before=()):
        cwd = env.get("MYDAY_DATA_DIR") if name != "nginx" else None
        process = self.processes.get(name) or Process(name, command, env, self.workdir, before, cwd)
        self.processes[name] = process
        process.start()

    def wait_until_ready(self, name):
        process, port = self.processes[name], self.api_ports[int(name.split("-")[1])]
        poll(lambda: process.popen.poll() is not None or answers(port), 60, f"{name} never became ready")
        assert process.popen.poll() is None, f"{name} ended as it started:\n{process.tail()}"

    def tls(self):
        return ssl.create_default_context(cafile=self.certificate)

    # ---- during the run

    def kill_mid_request(self, name, in_flight_gets):
        """SIGKILLs API node `name` while it holds a client's POST, then starts it again; answers how many requests it
        had been handed and not read. It is stopped (SIGSTOP) while requests pile up in it: once more wait unread than
        clients have GETs under way (`in_flight_gets()`), one is a POST, which nginx does not send on to another node,
        so its client meets the kill."""
        process, port = self.processes[name], self.api_ports[int(name.split("-")[1])]
        process.signal(signal.SIGSTOP)
        unread = []
        poll(lambda: unread.append(unread_requests(port)) or unread[-1] > in_flight_gets(), DEADLINE,
             f"no POST reached the stopped {name}", every=0.02)
        process.kill()
        process.start()
        self.wait_until_ready(name)
        return unread[-1]

    def running_jobs(self):
        """The running jobs as {id: (kind, pid of the process holding it)}."""
        jobs = {}
        for job, kind, holder in self.query("SELECT id, kind, locked_by FROM jobs WHERE state = 'running'"):
            jobs[job] = (kind, int(re.search(r"-(\d+)-[0-9a-f]{8}$", holder).group(1)))
        self.job_holders.update(pid for _, pid in jobs.values())
        return jobs

    def kill_mid_job(self, name, kind, seconds=1):
        """SIGKILLs worker `name` if it runs a job of `kind` within `seconds`, then starts it again; answers
        {job id: kind} of every job it held, or None (nothing killed). PostgreSQL looks for the job every 10 ms; the
        worker is stopped (SIGSTOP) before its jobs are read again, so none of them can finish between looking and
        killing."""
        process = self.processes[name]
        pid = process.popen.pid
        runs = (f"EXISTS (SELECT FROM jobs WHERE state = 'running' AND kind = '{kind}'"
                f" AND locked_by ~ '-{pid}-[0-9a-f]{{8}}$')")
        wait = f"FOR i IN 1..{seconds * 100} LOOP EXIT WHEN {runs}; PERFORM pg_sleep(0.01); END LOOP;"
        if self.query(f"DO $$ BEGIN {wait} END $$; SELECT {runs}")[-1] != ["t"]:
            return None
        process.signal(signal.SIGSTOP)
        held = {job: job_kind for job, (job_kind, holder) in self.running_jobs().items() if holder == pid}
        if kind not in held.values():
            process.signal(signal.SIGCONT)
            return None
        process.kill()
        process.start()
        return held

    # ---- looking inside

    def s3(self):
        import boto3
        from botocore.config import Config

        return boto3.client(
            "s3", endpoint_url=self.bucket_endpoint, region_name="us-east-1", aws_access_key_id=self.access_key,
            aws_secret_access_key=self.secret_key, config=Config(signature_version="s3v4"))

    def bucket_keys(self):
        keys = {}
        for page in self.s3().get_paginator("list_objects_v2").paginate(Bucket=self.bucket_name, Prefix=self.prefix):
            for item in page.get("Contents", []):
                keys[item["Key"][len(self.prefix):]] = item["Size"]
        return keys

    def open_multipart_uploads(self):
        return self.s3().list_multipart_uploads(Bucket=self.bucket_name, Prefix=self.prefix).get("Uploads", [])

    def exports_under_way(self):
        return int(self.query("SELECT count(*) FROM exports WHERE status IN ('queued', 'building')")[0][0])

    def query(self, sql):
        return psql(self.database_url, sql)


class SingleMachine(System):
    """The baseline: one server started as deploy/systemd/myday.service starts it, with its embedded defaults (SQLite,
    blobs on disk, jobs in process), reached directly, nothing killed."""

    def __init__(self, settings: Settings, workdir: str):
        self.settings, self.workdir = settings, workdir
        self.binary = os.environ.get("MYDAY_SERVER_BINARY", os.path.join(ROOT, ".build/debug/myday-server"))
        self.processes = {}

    def start(self):
        self.proxy_port = free_port()
        self.public_url = f"http://127.0.0.1:{self.proxy_port}"
        data = os.path.join(self.workdir, "server")
        os.makedirs(data)
        env = {
            "PATH": os.environ.get("PATH", ""), "MYDAY_DATA_DIR": data,
            "MYDAY_PORT": str(self.proxy_port), "MYDAY_SPEECH_SERVICE": "off", "MYDAY_LOG_LEVEL": "warning",
            "MYDAY_WORKERS": str(self.settings.worker_slots * self.settings.workers),
            "MYDAY_RATE_LIMIT_AUTH_PER_MINUTE": "100000", "MYDAY_RATE_LIMIT_REFRESH_PER_MINUTE": "100000",
            "MYDAY_RATE_LIMIT_ENTRIES_PER_MINUTE": "100000",
            "MYDAY_RATE_LIMIT_UPLOADS_PER_MINUTE": "100000", "MYDAY_RATE_LIMIT_EXPORTS_PER_MINUTE": "100000",
        }
        before, command = unit_commands("myday.service", self.binary)
        process = Process("server", command, env, self.workdir, before, data)
        self.processes["server"] = process
        process.start()
        poll(lambda: answers(self.proxy_port), 60, f"the server never became ready:\n{process.tail()}")

    def tls(self):
        return None


class Failure(Exception):
    pass


class Client:
    """One person's device: signs up, records entries (upload to the bucket, complete), syncs by cursor, asks for
    exports while it records. Retries what failed because a node went away, as the apps do; every write of the API may
    be repeated."""

    def __init__(self, cluster: Cluster, audio: bytes, stats):
        self.cluster, self.audio, self.stats = cluster, audio, stats
        self.cursor = "0"
        self.view = {}
        self.created = []
        self.confirmed = []
        # (export id, the entries confirmed before it was asked for), in the order asked.
        self.asked = []

    def request(self, method, url, body=None, headers=None, token=True, expect=(200, 201, 202, 204)):
        parts = urllib.parse.urlsplit(url)
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        headers = dict(headers or {})
        if body is not None and not isinstance(body, bytes):
            body = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token and parts.port == self.cluster.proxy_port:
            headers["Authorization"] = f"Bearer {self.token}"
        end = time.monotonic() + 120
        delay = 0.05
        while True:
            try:
                response, data = self._send(method, parts, target, body, headers)
                if response.status in (502, 503, 504):
                    raise ConnectionError(f"{response.status} from the proxy")
                if response.status not in expect:
                    raise Failure(f"{method} {target} answered {response.status}: {data[:300]!r}")
                return response, data
            except (OSError, http.client.HTTPException) as error:
                self.stats.retry()
                if time.monotonic() > end:
                    raise Failure(f"{method} {target} kept failing: {error!r}")
                time.sleep(delay)
                delay = min(delay * 2, 1.0)

    def _send(self, method, parts, target, body, headers):
        """One attempt, counted among the requests under way while it is."""
        self.stats.sending(method, 1)
        try:
            if parts.scheme == "https":
                connection = http.client.HTTPSConnection(parts.hostname, parts.port, context=self.cluster.tls(), timeout=60)
            else:
                connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
            connection.request(method, target, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
            connection.close()
            return response, data
        finally:
            self.stats.sending(method, -1)

    def api(self, method, path, body=None, **options):
        response, data = self.request(method, self.cluster.public_url + path, body, **options)
        return json.loads(data) if data else {}

    def sign_up(self):
        answer = self.api("POST", "/v1/auth/email/register",
                          {"email": f"p-{uuid.uuid4().hex[:10]}@example.com", "password": "correct horse battery"},
                          token=False)
        self.token = answer["access_token"]
        self.user = answer["user"]["id"]

    def record(self, index):
        entry_id = str(uuid.uuid4())
        created = self.api("POST", "/v1/entries", {
            "id": entry_id, "created_at": f"2026-05-01T08:{index % 60:02d}:00Z", "tz": "Europe/Paris",
            "duration_s": 1.5, "kind": "audio", "size_bytes": len(self.audio), "content_type": "audio/mp4"})
        self.created.append(entry_id)
        upload = created["upload"]
        self.request("PUT", upload["url"], self.audio, upload["headers"])
        self.stats.uploaded()
        completed = self.api("POST", f"/v1/entries/{entry_id}/complete")
        if completed.get("status") not in ("uploaded", "transcribing", "transcribed"):
            raise Failure(f"complete answered {completed}")
        self.confirmed.append(entry_id)
        self.stats.completed()

    def changes(self, cursor):
        """Every page of a delta sync from `cursor`, in order."""
        while True:
            page = self.api("GET", f"/v1/entries?since={cursor}&limit=50")
            yield page
            cursor = page["next_cursor"]
            if not page["has_more"]:
                return

    def sync(self):
        """One delta sync from the cursor; the view takes what changed."""
        for page in self.changes(self.cursor):
            for entry in page["entries"]:
                self.view[entry["id"]] = entry
            for gone in page["deleted_ids"]:
                self.view.pop(gone, None)
            self.cursor = page["next_cursor"]

    def everything(self):
        """What a device that never synced before would see."""
        return {entry["id"]: entry for page in self.changes("0") for entry in page["entries"]}

    def ask_export(self):
        """Asks for an export of the day (with entries.json); answers its id, or None while another is on its way."""
        confirmed = set(self.confirmed)
        response, data = self.request(
            "POST", self.cluster.public_url + "/v1/exports",
            {"from": "2026-05-01", "to": "2026-05-01", "tz": "Europe/Paris", "formats": ["json"]}, expect=(202, 409))
        if response.status == 409:
            return None
        export_id = json.loads(data)["id"]
        self.asked.append((export_id, confirmed))
        return export_id

    def exports(self):
        return self.api("GET", "/v1/exports")["exports"]

    def exports_settled(self):
        return all(export["status"] in ("ready", "failed") for export in self.exports())

    def download(self, export):
        # The server's link: with a bucket it sends the browser there; on one machine it serves the file itself.
        response, archive = self.request("GET", export["download_url"], token=False, expect=(200, 302))
        if response.status == 302:
            _, archive = self.request("GET", response.getheader("Location"), token=False)
        return archive


@dataclass
class Stats:
    lock: threading.Lock = field(default_factory=threading.Lock)
    uploads: int = 0
    completes: int = 0
    retries: int = 0
    last_complete: float = 0.0
    # Requests under way, by method.
    in_flight: Counter = field(default_factory=Counter)

    def uploaded(self):
        with self.lock:
            self.uploads += 1

    def completed(self):
        with self.lock:
            self.completes += 1
            self.last_complete = time.monotonic()

    def retry(self):
        with self.lock:
            self.retries += 1

    def sending(self, method, change):
        with self.lock:
            self.in_flight[method] += change

    def in_flight_gets(self):
        with self.lock:
            return self.in_flight["GET"]


def make_audio(folder):
    """1.5 s of a tone as AAC in MP4, as an iPhone uploads it."""
    path = os.path.join(folder, "tone.m4a")
    subprocess.run(
        ["ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=1.5", "-c:a", "aac",
         "-b:a", "64k", path], check=True)
    with open(path, "rb") as file:
        return file.read()


def run(settings: Settings, workdir: str, single_machine=False):
    """Runs the whole scenario on the cluster (or, as a baseline, on one server without killing anything); answers
    what it measured. Raises when an invariant does not hold."""
    cluster = SingleMachine(settings, workdir) if single_machine else Cluster(settings, workdir)
    audio = make_audio(workdir)
    stats = Stats()
    try:
        cluster.start()
        clients = [Client(cluster, audio, stats) for _ in range(settings.clients)]
        for client in clients:
            client.sign_up()
            client.sync()
        errors = []
        recorded = threading.Event()
        kills = {"unread_at_kill": 0, "held_at_kill": {}}

        def thread(work, *args):
            def guarded():
                try:
                    work(*args)
                except Exception as error:  # reported below with the logs
                    errors.append(error)
            return threading.Thread(target=guarded)

        def device(client):
            last = settings.entries_per_client - 1
            for index in range(settings.entries_per_client):
                client.record(index)
                client.sync()
                if index == last:
                    # The last export holds every recording: asked for again until none is on its way.
                    while not client.ask_export():
                        poll(client.exports_settled, DEADLINE, "an export never finished", every=0.25)
                elif index >= 1:
                    client.ask_export()

        def kill_api_node():
            poll(lambda: stats.completes >= settings.kill_after or errors, DEADLINE, "the uploads never got far enough")
            if not errors:
                kills["unread_at_kill"] = cluster.kill_mid_request("api-0", stats.in_flight_gets)

        def kill_worker():
            def killed():
                kills["held_at_kill"] = cluster.kill_mid_job("worker-0", "build_export") or {}
                return kills["held_at_kill"] or errors or (recorded.is_set() and not cluster.exports_under_way())

            poll(killed, DEADLINE, "worker-0 was never killed", every=0)

        sampler_stop = threading.Event()

        def sampler():
            while not sampler_stop.wait(0.2):
                cluster.sample()

        threading.Thread(target=sampler, daemon=True).start()
        started = time.monotonic()
        devices = [thread(device, client) for client in clients]
        killers = [] if single_machine else [thread(kill_api_node), thread(kill_worker)]
        for each in devices + killers:
            each.start()
        for each in devices:
            each.join()
        recorded.set()
        for each in killers:
            each.join()
        if errors:
            raise errors[0]

        # Every device syncs until all its entries are transcribed.
        def all_transcribed():
            for client in clients:
                client.sync()
            return all(
                client.view.get(entry, {}).get("status") in ("transcribed", "failed")
                for client in clients for entry in client.created)

        poll(all_transcribed, DEADLINE, "not every entry was transcribed", every=0.5)
        transcribed = time.monotonic()
        poll(lambda: all(map(Client.exports_settled, clients)), DEADLINE, "not every export finished", every=0.5)
        sampler_stop.set()
        cluster.sample()

        results = {
            "entries": settings.clients * settings.entries_per_client,
            "exports": sum(len(client.asked) for client in clients),
            "seconds_to_transcribed": transcribed - started,
            "entries_per_minute": 60 * settings.clients * settings.entries_per_client / (transcribed - started),
            "uploads_per_second": stats.uploads / (stats.last_complete - started),
            "retries": stats.retries,
            "peak_rss_mb": {name: round(process.peak_mb, 1) for name, process in cluster.processes.items()},
        }
        check_sync(clients)
        check_exports(clients, audio)
        if not single_machine:
            check(cluster, clients, audio, stats, kills)
            results["requests_in_killed_node"] = kills["unread_at_kill"]
            results["jobs_taken_over"] = sorted(kills["held_at_kill"].values())
        return results
    except BaseException:
        for process in cluster.processes.values():
            print(f"--- {process.name}\n{process.tail()}", file=sys.stderr)
        raise
    finally:
        cluster.stop()


def check_sync(clients):
    """Every device's incremental view is what a fresh device sees, and holds exactly what it recorded."""
    for client in clients:
        fresh = client.everything()
        assert set(client.view) == set(fresh) == set(client.created), f"{client.user}: the synced view differs"
        for entry_id, entry in fresh.items():
            mine = client.view[entry_id]
            assert (mine["status"], mine.get("transcript_clean")) == (entry["status"], entry.get("transcript_clean")), \
                f"{entry_id}: the synced view missed a change"
            assert entry["status"] == "transcribed", f"{entry_id} ended {entry['status']}"


def read_export(archive):
    """The entries.json and the files of an export, after checking that the zip is whole."""
    with zipfile.ZipFile(io.BytesIO(archive)) as opened:
        assert opened.testzip() is None, "a damaged file in the export"
        files = {name: opened.read(name) for name in opened.namelist()}
    assert "README.txt" in files and "entries.json" in files, f"export files: {sorted(files)}"
    return json.loads(files["entries.json"]), files


def check_exports(clients, audio):
    """Every export, built while people recorded and nodes died, is ready and downloads whole, and holds what its
    person had when it was built: their entries only, each recording as uploaded, each transcript as it ended, at
    least what they had confirmed before asking; the last one asked for holds every recording."""
    for client in clients:
        asked = dict(client.asked)
        exports = client.exports()
        assert client.asked and set(asked) <= {export["id"] for export in exports}, f"{client.user}: exports missing"
        for export in exports:
            assert export["status"] == "ready", f"export {export}"
            # An export whose answer was lost (and asked for again) came after the first ask.
            confirmed = asked.get(export["id"], client.asked[0][1])
            entries, files = read_export(client.download(export))
            ids = [entry["id"] for entry in entries]
            assert len(ids) == len(set(ids)) and set(ids) <= set(client.created), f"export {export['id']}: {ids}"
            with_audio = {entry["id"] for entry in entries if entry["status"] != "pending_upload"}
            assert confirmed <= with_audio, f"export {export['id']} misses entries confirmed before it was asked for"
            recordings = [data for name, data in files.items() if name.endswith(".m4a")]
            assert len(recordings) == len(with_audio) and all(data == audio for data in recordings), \
                f"export {export['id']}: recordings differ from the uploads"
            done = [entry for entry in entries if entry["status"] == "transcribed"]
            for entry in done:
                assert entry.get("transcript_clean") == client.view[entry["id"]].get("transcript_clean"), \
                    f"export {export['id']}: {entry['id']}'s transcript differs"
            texts = sum(name.endswith(".txt") and name != "README.txt" for name in files)
            assert texts == len(done), f"export {export['id']}: {texts} transcripts for {len(done)} transcribed entries"
            counts = (export["entries"], export["audio_files"], export["not_transcribed"])
            assert counts == (len(ids), len(with_audio), len(ids) - len(done)), f"export {export['id']}: {counts}"
        assert client.asked[-1][1] == set(client.created), f"{client.user}: the last export came before the last entry"


def check(cluster, clients, audio, stats, kills):
    """The promises of the cluster: nothing lost, nothing twice, nothing left over; and the kills hit work under way."""
    # Each entry was transcribed by exactly one job, which succeeded; each export built by one; no job left or dead.
    entries = sum(len(client.created) for client in clients)
    states = dict(cluster.query("SELECT state, count(*) FROM jobs WHERE kind = 'transcribe' GROUP BY state"))
    assert states == {"succeeded": str(entries)}, f"transcription jobs: {states} for {entries} entries"
    exports = cluster.query("SELECT count(*) FROM exports")[0][0]
    states = dict(cluster.query("SELECT state, count(*) FROM jobs WHERE kind = 'build_export' GROUP BY state"))
    assert states == {"succeeded": exports}, f"export jobs: {states} for {exports} exports"

    # The worker was killed building an export; every job it held was taken over (a second attempt) and succeeded.
    held = kills["held_at_kill"]
    assert "build_export" in held.values(), "worker-0 was never killed while building an export"
    ids = ", ".join(f"'{job}'" for job in held)
    after = cluster.query(f"SELECT id, state, attempts FROM jobs WHERE id IN ({ids})")
    taken_over = [job for job, state, attempts in after if state == "succeeded" and int(attempts) >= 2]
    assert len(taken_over) == len(held), f"jobs held by the killed worker: {after}"
    # Only workers ran jobs: the API unit's MYDAY_WORKERS=0 held.
    workers = {pid for name, process in cluster.processes.items() if name.startswith("worker-") for pid in process.pids}
    assert cluster.job_holders and cluster.job_holders <= workers, f"jobs ran in {cluster.job_holders - workers}"
    # The API node was killed holding client requests, and clients met it.
    assert kills["unread_at_kill"] > 0 and stats.retries > 0, f"the API node's kill went unnoticed: {kills}, {stats}"

    # Every upload the server confirmed is in the bucket, whole; no object belongs to nothing.
    keys = cluster.bucket_keys()
    audio_keys = {f"audio/{client.user}/{entry}" for client in clients for entry in client.confirmed}
    for key in audio_keys:
        assert keys.get(key) == len(audio), f"{key} is not in the bucket whole"
    stored = {row[0] for row in cluster.query("SELECT audio_key FROM entries WHERE deleted_at IS NULL")}
    archives = {row[0] for row in cluster.query("SELECT blob_key FROM exports WHERE blob_key IS NOT NULL")}
    leftovers = [key for key in keys if key not in stored and key not in archives]
    assert not leftovers, f"objects that belong to no entry or export: {leftovers[:5]}"
    assert archives <= set(keys), f"export archives not in the bucket: {sorted(archives - set(keys))[:5]}"
    # No multipart upload left open, but for one begun within housekeeping's cut-off (it may still be under way).
    # moto dates every multipart upload 2010, so here any left open fails.
    cutoff = time.time() - ABANDONED_WRITE_AGE
    stale = [upload["Key"] for upload in cluster.open_multipart_uploads() if upload["Initiated"].timestamp() < cutoff]
    assert not stale, f"multipart uploads left open: {stale[:5]}"


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="myday-scale-") as folder:
        print(json.dumps(run(Settings(), folder), indent=2))
