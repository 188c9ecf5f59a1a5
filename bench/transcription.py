"""What the transcription benchmarks (`bench/pipeline`, `bench/speech`) share: diary sentences spoken by
espeak-ng, the release `myday-server` on a loopback port, waits for transcripts, timing and word error rate."""
import json, os, shutil, socket, subprocess, tempfile, time, urllib.error, urllib.request, uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# MYDAY_BENCH_BINARY runs a server built elsewhere (another checkout, say) instead of this checkout's release build.
BINARY = os.environ.get("MYDAY_BENCH_BINARY") or os.path.join(ROOT, ".build/release/myday-server")


def build_server():
    """Builds the release `myday-server` the benchmarks start, unless MYDAY_BENCH_BINARY names another."""
    if "MYDAY_BENCH_BINARY" not in os.environ:
        subprocess.run(["swift", "build", "-c", "release", "--product", "myday-server"], cwd=ROOT, check=True)
SENTENCES = [
    "today i walked to the park with my sister",
    "we had coffee and talked about the garden",
    "the weather was cold but the sun came out in the afternoon",
    "i finished the report for work before lunch",
    "my mother called and we made plans for the weekend",
    "in the evening i cooked pasta and read a book",
    "the train was late again this morning",
    "i went for a run along the river",
    "we watched a film with our friends",
    "i feel tired but happy about the day",
    "tomorrow i want to start earlier",
    "the children played outside until dinner",
]
VOICES = ["en-us", "en-gb"]


def run(args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, **kwargs)


def speak(text, voice, out):
    wav = out + ".wav"
    run(["espeak-ng", "-v", voice, "-s", "150", "-w", wav, text])
    run(["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-i", wav, "-ar", "44100", "-ac", "1", "-c:a", "aac", "-b:a", "64k", out])
    os.remove(wav)


def long_audio(folder, seconds, out):
    """Diary sentences in turn, with pauses between them, looped to `seconds`."""
    base = os.path.join(folder, "base.wav")
    if not os.path.exists(base):
        text = ". ".join(SENTENCES) + "."
        run(["espeak-ng", "-v", "en-us", "-s", "150", "-g", "12", "-w", base, text])
    run(["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-stream_loop", "-1", "-i", base, "-t", str(seconds),
         "-ar", "44100", "-ac", "1", "-c:a", "aac", "-b:a", "64k", out])


def measured(args, env=None):
    """Wall seconds, peak RSS (MB) and stdout of a command."""
    started = time.monotonic()
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise RuntimeError(f"{args} failed")
    return time.monotonic() - started, usage.ru_maxrss / 1024, output


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


ACCOUNT = {"email": "bench@example.com", "password": "benchmark password"}


class Server:
    """`myday-server serve` (release build) with a fresh data directory and a registered user; `settings` are
    more MYDAY_* variables (MYDAY_SPEECH_SERVICE=off for PocketSphinx)."""

    def __init__(self, workers, **settings):
        self.data = tempfile.mkdtemp(prefix="myday-bench-")
        self.port = free_port()
        env = dict(os.environ, MYDAY_PORT=str(self.port), MYDAY_DATA_DIR=self.data, MYDAY_LOG_LEVEL="error", MYDAY_WORKERS=str(workers),
                   MYDAY_RATE_LIMIT_ENTRIES_PER_MINUTE="1000000", MYDAY_RATE_LIMIT_UPLOADS_PER_MINUTE="1000000", **settings)
        self.process = subprocess.Popen([BINARY, "serve"], env=env)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.time() + 30
        while True:
            try:
                self.call("GET", "/healthz"); break
            except Exception:
                if time.time() > deadline: raise
                time.sleep(0.1)
        self.token = self.call("POST", "/v1/auth/email/register", ACCOUNT)["access_token"]

    def call(self, method, path, body=None, data=None, headers=None):
        """One request; a 401 (the 15-minute access token expired during a long run) signs in again and retries once."""
        try:
            return self._call(method, path, body, data, headers)
        except urllib.error.HTTPError as error:
            if error.code != 401 or not getattr(self, "token", None):
                raise
            self.token = self._call("POST", "/v1/auth/email/login", ACCOUNT)["access_token"]
            return self._call(method, path, body, data, headers)

    def _call(self, method, path, body=None, data=None, headers=None):
        headers = dict(headers or {})
        if body is not None:
            data = json.dumps(body).encode(); headers["Content-Type"] = "application/json"
        if getattr(self, "token", None) and path.startswith("/v1/") and not path.startswith("/v1/blobs") and "/auth/" not in path:
            headers["Authorization"] = "Bearer " + self.token
        url = path if path.startswith("http") else self.base + path
        with urllib.request.urlopen(urllib.request.Request(url, data=data, method=method, headers=headers), timeout=600) as r:
            raw = r.read()
            return json.loads(raw) if raw else {}

    def upload(self, path):
        audio = open(path, "rb").read()
        entry = self.call("POST", "/v1/entries", {"id": str(uuid.uuid4()), "created_at": "2026-05-01T08:30:00Z", "tz": "UTC",
                                                  "kind": "audio", "size_bytes": len(audio), "content_type": "audio/mp4"})
        self.call("PUT", entry["upload"]["url"], data=audio, headers={"Content-Type": "audio/mp4"})
        return entry["entry"]["id"]

    def complete(self, entry_id, transcript=None):
        self.call("POST", f"/v1/entries/{entry_id}/complete", {"transcript": transcript} if transcript else None)

    def status(self, entry_id):
        return self.call("GET", f"/v1/entries/{entry_id}")["status"]

    def wait_for_speech(self):
        """Waits until the engine this server transcribes with can transcribe (the speech service has loaded)."""
        while self.call("GET", "/readyz").get("speech", {}).get("state") != "ready":
            time.sleep(0.1)

    def speech_service_pid(self):
        """The pid of the speech service this server started (its one Python child)."""
        for task in os.listdir(f"/proc/{self.process.pid}/task"):
            with open(f"/proc/{self.process.pid}/task/{task}/children") as f:
                for child in f.read().split():
                    with open(f"/proc/{child}/cmdline", "rb") as cmdline:
                        if b"myday_speech" in cmdline.read():
                            return int(child)
        return None

    def rss_mb(self):
        return rss_mb(self.process.pid)

    def stop(self):
        self.process.terminate(); self.process.wait(timeout=60); shutil.rmtree(self.data, ignore_errors=True)


def rss_mb(pid):
    """The resident memory of process `pid` now, in MB (0 once it has exited)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0) / 1024
    except FileNotFoundError:
        return 0.0


def wait_transcribed(server, ids, sample=None):
    pending = set(ids)
    while pending:
        for entry_id in list(pending):
            status = server.status(entry_id)
            if status in ("transcribed", "failed"):
                if status == "failed": raise RuntimeError("transcription failed")
                pending.discard(entry_id)
        if sample: sample()
        time.sleep(0.25)


def wer(reference, hypothesis):
    ref, hyp = reference.split(), hypothesis.lower().split()
    previous = list(range(len(hyp) + 1))
    for i, word in enumerate(ref, 1):
        current = [i] + [0] * len(hyp)
        for j, guess in enumerate(hyp, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (word != guess))
        previous = current
    return previous[-1], len(ref)


