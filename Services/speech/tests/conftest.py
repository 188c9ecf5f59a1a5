"""Fixtures: the real model (installed by scripts/install-speech-service), the app in-process, and test audio made
with espeak-ng and ffmpeg."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from myday_speech.app import build_app
from myday_speech.engine import Engine
from myday_speech.settings import Settings

HUMAN_SPEECH = Path("/usr/share/pocketsphinx/test/data")


@pytest.fixture(scope="session")
def engine() -> Engine:
    return Engine(Settings.from_environment({"MYDAY_SPEECH_CONCURRENCY": "2"}))


@pytest.fixture(scope="session")
def client(engine) -> TestClient:
    return TestClient(build_app(engine))


class Media:
    """Makes test recordings in a temporary folder."""

    def __init__(self, folder: Path):
        self.folder = folder

    def spoken(self, text: str, voice: str = "en-us", name: str = "spoken", speed: int = 150) -> Path:
        wav = self.folder / f"{name}.wav"
        subprocess.run(["espeak-ng", "-v", voice, "-s", str(speed), "-w", str(wav), text], check=True)
        return wav

    def ffmpeg(self, name: str, *arguments: str) -> Path:
        out = self.folder / name
        subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", *arguments, str(out)], check=True)
        return out

    def generated(self, name: str, source: str, seconds: float) -> Path:
        """`source` is an ffmpeg lavfi source graph (sine, anoisesrc, anullsrc…), mono 16 kHz."""
        return self.ffmpeg(name, "-f", "lavfi", "-i", source, "-t", str(seconds), "-ar", "16000", "-ac", "1")

    def raw(self, path: Path) -> Path:
        """A headerless 16 kHz s16le recording as a WAV file."""
        return self.ffmpeg(f"{path.stem}.wav", "-f", "s16le", "-ar", "16000", "-ac", "1", "-i", str(path))

    def padded(self, path: Path, before: float, after: float) -> Path:
        """`path` with `before` s of silence ahead of it and `after` s behind it."""
        return self.ffmpeg(
            f"padded-{path.stem}.wav",
            "-i",
            str(path),
            "-af",
            f"adelay={int(before * 1000)},apad=pad_dur={after}",
            "-ar",
            "16000",
            "-ac",
            "1",
        )


@pytest.fixture(scope="session")
def media(tmp_path_factory) -> Media:
    return Media(tmp_path_factory.mktemp("media"))


def transcribe(client: TestClient, path: Path, **fields) -> dict:
    """POSTs `path` and answers the verbose JSON (words and segments)."""
    data = {
        "model": "whisper-1",
        "response_format": "verbose_json",
        "timestamp_granularities[]": ["word", "segment"],
        **fields,
    }
    with path.open("rb") as file:
        response = client.post("/v1/audio/transcriptions", data=data, files={"file": (path.name, file)})
    assert response.status_code == 200, response.text
    return response.json()
