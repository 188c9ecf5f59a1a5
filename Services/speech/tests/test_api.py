"""The OpenAI-compatible surface: formats, models, and clear errors for bad requests."""

from __future__ import annotations

import io

import pytest


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
