"""The OpenAI-compatible surface: formats, models, and clear errors for bad requests."""

from __future__ import annotations

import io
import threading
import time

import anyio
import httpx
import pytest

from myday_speech.app import build_app
from myday_speech.engine import Stopped


@pytest.fixture(scope="module")
def hello(media):
    return media.spoken("Hello, this is a short test of the diary.", name="hello").read_bytes()


def post(client, content: bytes, **data):
    return client.post(
        "/v1/audio/transcriptions",
        data={"model": "whisper-1", **data},
        files={"file": ("audio.wav", io.BytesIO(content))},
    )


def test_json_and_text_formats(client, hello):
    assert "short test" in post(client, hello).json()["text"].lower()
    text = post(client, hello, response_format="text")
    assert text.headers["content-type"].startswith("text/plain")
    assert "short test" in text.text.lower()


def test_verbose_json_without_word_granularity_has_segments_only(client, hello):
    answer = post(client, hello, response_format="verbose_json").json()
    assert answer["segments"] and "words" not in answer


def test_models_and_health(client):
    models = client.get("/v1/models").json()
    assert [model["id"] for model in models["data"]] == ["whisper-base"]
    assert client.get("/v1/models/whisper-base").status_code == 200
    assert client.get("/v1/models/whisper-large-v3").status_code == 404
    assert client.get("/health").json()["status"] == "ok"


@pytest.mark.parametrize(
    ("content", "data", "status", "param"),
    [
        (b"this is not audio at all", {}, 400, "file"),
        (b"", {}, 400, "file"),
        (None, {"model": "whisper-large-v3"}, 404, "model"),
        (None, {"language": "klingon"}, 400, "language"),
        (None, {"temperature": "3"}, 400, "temperature"),
        (None, {"response_format": "srt"}, 400, "response_format"),
    ],
)
def test_bad_requests_get_a_clear_error(client, hello, content, data, status, param):
    response = post(client, hello if content is None else content, **data)
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["param"] == param
    assert error["message"]


def test_a_request_without_a_file_is_refused(client):
    response = client.post("/v1/audio/transcriptions", data={"model": "whisper-1"})
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "file"


class HeldEngine:
    """The real engine, held at its second stop check (after the first segment) until the client has left."""

    def __init__(self, engine):
        self.engine, self.settings = engine, engine.settings
        self.checks, self.holding, self.stopped = 0, threading.Event(), False

    def transcribe(self, *arguments, should_stop, **options):
        def check():
            self.checks += 1
            if self.checks == 2:
                self.holding.set()
                deadline = time.monotonic() + 60
                while not should_stop() and time.monotonic() < deadline:
                    time.sleep(0.01)
            return should_stop()

        try:
            return self.engine.transcribe(*arguments, should_stop=check, **options)
        except Stopped:
            self.stopped = True
            raise


def test_a_client_that_leaves_stops_its_transcription(engine, hello):
    # Given a transcription under way (held after its first segment)
    held = HeldEngine(engine)
    request = httpx.Request(
        "POST", "http://service/v1/audio/transcriptions", data={"model": "whisper-1"}, files={"file": ("a.wav", hello)}
    )
    body, sent = request.read(), []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/v1/audio/transcriptions",
        "raw_path": b"/v1/audio/transcriptions",
        "query_string": b"",
        "root_path": "",
        "headers": [(name.lower().encode(), value.encode()) for name, value in request.headers.items()],
        "client": ("127.0.0.1", 1),
        "server": ("service", 80),
    }
    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive():
        if messages:
            return messages.pop(0)
        # When: the client goes away while the engine works
        await anyio.to_thread.run_sync(held.holding.wait)
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    anyio.run(build_app(held), scope, receive, send)

    # Then the engine stopped at its next check, and no transcript was answered
    assert held.stopped and held.checks == 2
    assert sent[0]["status"] == 499
