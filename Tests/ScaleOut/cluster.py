"""My Day beyond one machine, on loopback: PostgreSQL, an S3-compatible bucket, API nodes behind nginx (the
configuration in deploy/nginx/myday.conf, with TLS) and worker processes, driven by many clients at once while
processes are killed with SIGKILL and started again. Shared by the scale-out test (small) and bench/scaleout (large).

Every process runs from the build under test (MYDAY_SERVER_BINARY, or .build/debug/myday-server); PostgreSQL is the
one MYDAY_TEST_POSTGRES_URL names (scripts/with-postgres starts it).
"""

import http.client
import json
import os
import re
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
from dataclasses import dataclass, field

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DEADLINE = 180


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


def psql(url, query):
    """Rows of a query, run with Debian's psql, as lists of strings."""
    out = subprocess.run(["psql", url, "-AtF", "\t", "-c", query], check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]


class Process:
    """One myday-server, nginx or bucket process, with its log and its peak memory remembered across restarts."""

    def __init__(self, name, command, env, log_dir):
        self.name, self.command, self.env = name, command, env
        self.log_path = os.path.join(log_dir, f"{name}.log")
        self.peak_mb = 0.0
        self.popen = None

    def start(self):
        log = open(self.log_path, "ab")
        self.popen = subprocess.Popen(self.command, env=self.env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.PIPE)
        log.close()

    def sample(self):
        if self.popen and self.popen.poll() is None:
            self.peak_mb = max(self.peak_mb, peak_rss_mb(self.popen.pid) or 0)

    def kill(self):
        """SIGKILL: no draining, no goodbye."""
        self.sample()
        self.popen.send_signal(signal.SIGKILL)
        self.popen.wait()

    def stop(self):
        if self.popen and self.popen.poll() is None:
            self.sample()
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


def render_nginx(site, listen_port, upstream_ports, certificate, key):
    """deploy/nginx/myday.conf for loopback: this listen port, these API nodes, this certificate; the redirect from
    port 80 left out. Everything else is the file as operators install it."""
    blocks = re.split(r"\n(?=server \{)", site)
    redirect = [b for b in blocks if "return 301" in b]
    assert redirect, "the site no longer redirects http to https"
    site = "\n".join(b for b in blocks if "return 301" not in b)
    servers = "".join(f"    server 127.0.0.1:{port} max_fails=1 fail_timeout=10s;\n" for port in upstream_ports)
    site, count = re.subn(r"(upstream myday_api \{\n)(?:\s*#.*\n)*(?:\s*server [^\n]+\n)+", r"\g<1>" + servers, site)
    assert count == 1, "no upstream myday_api block with server lines"
    site = re.sub(r"\n\s*listen \[::\]:443 ssl[^;]*;", "", site)
    site, count = re.subn(r"listen 443 ssl", f"listen 127.0.0.1:{listen_port} ssl", site)
    assert count == 1, "no 'listen 443 ssl'"
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
    # After this many uploads have been completed, one API node and one worker are killed and started again.
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

    # ---- starting

    def start(self):
        self._start_bucket()
        self._make_certificate()
        self.proxy_port = free_port()
        self.public_url = f"https://127.0.0.1:{self.proxy_port}"
        subprocess.run([self.binary, "migrate"], env=self._env("migrate"), check=True, capture_output=True)
        self.api_ports = [free_port() for _ in range(self.settings.api_nodes)]
        for index, port in enumerate(self.api_ports):
            env = self._env(f"api-{index}", MYDAY_PORT=str(port), MYDAY_WORKERS="0")
            self._start(f"api-{index}", [self.binary, "serve"], env)
        for index in range(self.settings.api_nodes):
            self.wait_until_ready(f"api-{index}")
        self._start_nginx()
        for index in range(self.settings.workers):
            env = self._env(f"worker-{index}", MYDAY_WORKERS=str(self.settings.worker_slots))
            self._start(f"worker-{index}", [self.binary, "worker"], env)

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
            site = render_nginx(source.read(), self.proxy_port, self.api_ports, self.certificate, self.key)
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

    def _env(self, name, **extra):
        data = os.path.join(self.workdir, name)
        os.makedirs(data, exist_ok=True)
        env = {
            "PATH": os.environ.get("PATH", ""),
            "MYDAY_DATA_DIR": data,
            "MYDAY_DATABASE_URL": self.database_url,
            "MYDAY_SECRET": self.secret,
            "MYDAY_SPEECH_SERVICE": "off",
            "MYDAY_LOG_LEVEL": "warning",
            "MYDAY_S3_BUCKET": getattr(self, "bucket_name", ""),
            "MYDAY_S3_ENDPOINT": getattr(self, "bucket_endpoint", ""),
            "MYDAY_S3_REGION": "us-east-1",
            "MYDAY_S3_ACCESS_KEY_ID": getattr(self, "access_key", ""),
            "MYDAY_S3_SECRET_ACCESS_KEY": getattr(self, "secret_key", ""),
            "MYDAY_S3_PREFIX": self.prefix,
            "MYDAY_PUBLIC_URL": getattr(self, "public_url", ""),
            "MYDAY_TRUSTED_PROXY_HOPS": "1",
            # Many clients from one address: the limits are not what this run measures.
            "MYDAY_RATE_LIMIT_AUTH_PER_MINUTE": "100000",
            "MYDAY_RATE_LIMIT_ENTRIES_PER_MINUTE": "100000",
            "MYDAY_RATE_LIMIT_UPLOADS_PER_MINUTE": "100000",
            "MYDAY_RATE_LIMIT_EXPORTS_PER_MINUTE": "100000",
            # Jobs whose worker was killed are taken over soon.
            "MYDAY_JOB_LEASE_SECONDS": "5",
        }
        env.update(extra)
        return env

    def _start(self, name, command, env):
        process = self.processes.get(name) or Process(name, command, env, self.workdir)
        self.processes[name] = process
        process.start()

    def wait_until_ready(self, name):
        port = self.api_ports[int(name.split("-")[1])]
        poll(lambda: answers(port), 60, f"{name} never became ready:\n{self.processes[name].tail()}")

    def tls(self):
        return ssl.create_default_context(cafile=self.certificate)

    # ---- during the run

    def kill_and_restart(self, name):
        """SIGKILL one process, then start it again with the same settings (an API node on the same port)."""
        process = self.processes[name]
        process.kill()
        process.start()
        if name.startswith("api-"):
            self.wait_until_ready(name)

    # ---- looking inside

    def bucket_keys(self):
        import boto3
        from botocore.config import Config

        s3 = boto3.client(
            "s3", endpoint_url=self.bucket_endpoint, region_name="us-east-1", aws_access_key_id=self.access_key,
            aws_secret_access_key=self.secret_key, config=Config(signature_version="s3v4"))
        keys = {}
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=self.bucket_name, Prefix=self.prefix):
            for item in page.get("Contents", []):
                keys[item["Key"][len(self.prefix):]] = item["Size"]
        return keys

    def query(self, sql):
        return psql(self.database_url, sql)


class SingleMachine(System):
    """The baseline: one `myday-server serve` with its embedded defaults (SQLite, blobs on disk, jobs in process),
    reached directly, nothing killed."""

    def __init__(self, settings: Settings, workdir: str):
        self.settings, self.workdir = settings, workdir
        self.binary = os.environ.get("MYDAY_SERVER_BINARY", os.path.join(ROOT, ".build/debug/myday-server"))
        self.processes = {}

    def start(self):
        self.proxy_port = free_port()
        self.public_url = f"http://127.0.0.1:{self.proxy_port}"
        env = {
            "PATH": os.environ.get("PATH", ""), "MYDAY_DATA_DIR": os.path.join(self.workdir, "server"),
            "MYDAY_PORT": str(self.proxy_port), "MYDAY_SPEECH_SERVICE": "off", "MYDAY_LOG_LEVEL": "warning",
            "MYDAY_WORKERS": str(self.settings.worker_slots * self.settings.workers),
            "MYDAY_RATE_LIMIT_AUTH_PER_MINUTE": "100000", "MYDAY_RATE_LIMIT_ENTRIES_PER_MINUTE": "100000",
            "MYDAY_RATE_LIMIT_UPLOADS_PER_MINUTE": "100000", "MYDAY_RATE_LIMIT_EXPORTS_PER_MINUTE": "100000",
        }
        process = Process("server", [self.binary, "serve"], env, self.workdir)
        self.processes["server"] = process
        process.start()
        poll(lambda: answers(self.proxy_port), 60, f"the server never became ready:\n{process.tail()}")

    def tls(self):
        return None


class Failure(Exception):
    pass


class Client:
    """One person's device: signs up, records entries (upload to the bucket, complete), syncs by cursor, exports.
    Retries what failed because a node went away, as the apps do; every write of the API may be repeated."""

    def __init__(self, cluster: Cluster, audio: bytes, stats):
        self.cluster, self.audio, self.stats = cluster, audio, stats
        self.cursor = "0"
        self.view = {}
        self.created = []
        self.confirmed = []

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
                if parts.scheme == "https":
                    connection = http.client.HTTPSConnection(parts.hostname, parts.port, context=self.cluster.tls(), timeout=60)
                else:
                    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
                connection.request(method, target, body=body, headers=headers)
                response = connection.getresponse()
                data = response.read()
                connection.close()
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

    def export(self):
        asked = self.api("POST", "/v1/exports", {"from": "2026-05-01", "to": "2026-05-01", "tz": "Europe/Paris"})
        state = {}

        def ready():
            state.update(self.api("GET", f"/v1/exports/{asked['id']}"))
            return state.get("status") in ("ready", "failed")

        poll(ready, DEADLINE, "the export never finished", every=0.25)
        if state["status"] != "ready":
            raise Failure(f"export failed: {state}")
        # The server's link: with a bucket it sends the browser there; on one machine it serves the file itself.
        response, archive = self.request("GET", state["download_url"], token=False, expect=(200, 302))
        if response.status == 302:
            _, archive = self.request("GET", response.getheader("Location"), token=False)
        return asked["id"], archive


@dataclass
class Stats:
    lock: threading.Lock = field(default_factory=threading.Lock)
    uploads: int = 0
    completes: int = 0
    retries: int = 0

    def uploaded(self):
        with self.lock:
            self.uploads += 1

    def completed(self):
        with self.lock:
            self.completes += 1

    def retry(self):
        with self.lock:
            self.retries += 1


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
    results = {}
    try:
        cluster.start()
        clients = [Client(cluster, audio, stats) for _ in range(settings.clients)]
        for client in clients:
            client.sign_up()
            client.sync()
        killed = threading.Event()
        errors = []

        def killer():
            if single_machine:
                return killed.set()
            poll(lambda: stats.completes >= settings.kill_after or errors, DEADLINE, "the uploads never got far enough")
            cluster.kill_and_restart("api-0")
            cluster.kill_and_restart("worker-0")
            killed.set()

        def device(client):
            try:
                for index in range(settings.entries_per_client):
                    client.record(index)
                    client.sync()
            except Exception as error:  # reported below with the logs
                errors.append(error)

        sampler_stop = threading.Event()

        def sampler():
            while not sampler_stop.wait(0.2):
                cluster.sample()

        threading.Thread(target=sampler, daemon=True).start()
        started = time.monotonic()
        threads = [threading.Thread(target=device, args=(client,)) for client in clients]
        threads.append(threading.Thread(target=killer))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        uploads_done = time.monotonic()
        if errors:
            raise errors[0]
        assert killed.is_set(), "nothing was killed"

        # Every device syncs until all its entries are transcribed.
        def all_transcribed():
            for client in clients:
                client.sync()
            return all(
                client.view.get(entry, {}).get("status") in ("transcribed", "failed")
                for client in clients for entry in client.created)

        poll(all_transcribed, DEADLINE, "not every entry was transcribed", every=0.5)
        transcribed = time.monotonic()
        exports = {client.user: client.export() for client in clients}
        sampler_stop.set()
        cluster.sample()

        results = {
            "entries": settings.clients * settings.entries_per_client,
            "seconds_to_transcribed": transcribed - started,
            "entries_per_minute": 60 * settings.clients * settings.entries_per_client / (transcribed - started),
            "uploads_per_second": stats.uploads / (uploads_done - started),
            "retries": stats.retries,
            "peak_rss_mb": {name: round(process.peak_mb, 1) for name, process in cluster.processes.items()},
        }
        check_sync(clients)
        if not single_machine:
            check(cluster, clients, exports, audio)
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


def check(cluster, clients, exports, audio):
    """The promises of the cluster: nothing lost, nothing twice, nothing left over."""
    # Each entry was transcribed by exactly one job, which succeeded; no job is left or dead.
    entries = sum(len(client.created) for client in clients)
    states = dict(cluster.query("SELECT state, count(*) FROM jobs WHERE kind = 'transcribe' GROUP BY state"))
    assert states == {"succeeded": str(entries)}, f"transcription jobs: {states} for {entries} entries"

    # Every upload the server confirmed is in the bucket, whole; no object belongs to nothing.
    keys = cluster.bucket_keys()
    audio_keys = {f"audio/{client.user}/{entry}" for client in clients for entry in client.confirmed}
    for key in audio_keys:
        assert keys.get(key) == len(audio), f"{key} is not in the bucket whole"
    stored = {row[0] for row in cluster.query("SELECT audio_key FROM entries WHERE deleted_at IS NULL")}
    archives = {row[0] for row in cluster.query("SELECT blob_key FROM exports WHERE blob_key IS NOT NULL")}
    leftovers = [key for key in keys if key not in stored and key not in archives]
    assert not leftovers, f"objects that belong to no entry or export: {leftovers[:5]}"

    # Each export holds every recording of its person.
    for user, (export_id, archive) in exports.items():
        assert f"exports/{user}/{export_id}" in keys
        names = zip_names(archive)
        recorded = sum(len(c.created) for c in clients if c.user == user)
        assert sum(name.endswith(".m4a") for name in names) == recorded, f"export of {user}: {names}"


def zip_names(archive):
    import io
    import zipfile

    with zipfile.ZipFile(io.BytesIO(archive)) as opened:
        assert opened.testzip() is None
        return opened.namelist()


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="myday-scale-") as folder:
        print(json.dumps(run(Settings(), folder), indent=2))
