"""Long recordings in windows: cuts fall in pauses, and every window's words keep their place in time."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import transcribe
from fastapi.testclient import TestClient

from myday_speech import engine as engine_module
from myday_speech.app import build_app
from myday_speech.audio import SAMPLE_RATE, windows
from myday_speech.engine import Engine
from myday_speech.memory import release_freed_memory
from myday_speech.settings import Settings


def two_sentences(media, silence_after: float):
    """A sentence about tomatoes, then 40 s after its start one about a sunset, then `silence_after` s of silence."""
    first = media.spoken("I planted tomatoes in the garden this morning.", name="tomatoes")
    second = media.spoken("In the evening we watched the sunset from the hill.", name="sunset")
    return media.ffmpeg(
        f"two-sentences-{silence_after:g}.wav",
        *("-i", str(first), "-i", str(second)),
        "-filter_complex",
        f"[0]apad=whole_dur=40[a];[a][1]concat=n=2:v=0:a=1,apad=pad_dur={silence_after:g}",
        *("-ar", "16000", "-ac", "1"),
    )


def test_windows_cover_the_recording_and_cut_in_its_quietest_moment(media):
    # Given 70 s of a tone that falls silent for half a second at 25 s
    tone = media.generated("tone.wav", "sine=frequency=300:sample_rate=16000", seconds=70)
    quiet = media.ffmpeg("quiet.wav", "-i", str(tone), "-af", "volume=enable='between(t,25,25.5)':volume=0")
    # When it is read in 30 s windows
    parts = list(windows(str(quiet), window_seconds=30))
    # Then the first cut falls in the silence, and the windows join up to the whole recording
    assert 25 <= parts[1].offset <= 25.5
    assert sum(len(part.samples) for part in parts) == 70 * SAMPLE_RATE
    assert all(part.samples.dtype == np.float32 for part in parts)
    assert [part.offset for part in parts] == sorted(part.offset for part in parts)


def test_words_from_every_window_come_back_at_their_times(media):
    # Given two sentences, the second 40 s after the first, read in 30 s windows
    recording = two_sentences(media, silence_after=5)
    engine = Engine(Settings.from_environment({"MYDAY_SPEECH_WINDOW_SECONDS": "30"}))
    answer = transcribe(TestClient(build_app(engine)), recording)
    # Then both sentences are there, the second one's words 40 s or more in
    text = answer["text"].lower()
    assert "tomatoes" in text and "sunset" in text, answer["text"]
    sunset = next(word for word in answer["words"] if "sunset" in word["word"].lower())
    assert 40 <= sunset["start"] <= 45


def test_each_window_gives_the_memory_it_freed_back(media, monkeypatch):
    # Given 70 s of a tone read in 30 s windows, and a count of the times freed memory is handed back
    tone = media.generated("tone-70.wav", "sine=frequency=300:sample_rate=16000", seconds=70)
    handed_back = []
    monkeypatch.setattr(engine_module, "release_freed_memory", lambda: handed_back.append(True))
    engine = Engine(Settings.from_environment({"MYDAY_SPEECH_WINDOW_SECONDS": "30"}))
    # When it is transcribed
    engine.transcribe(str(tone))
    # Then glibc is asked to give memory back after each of its three windows, so RSS does not creep up with length
    assert len(handed_back) == 3
    assert release_freed_memory() is True


def test_a_streamed_transcription_tells_how_far_it_is_then_answers_whole(media):
    # Given two sentences 40 s apart, read in 30 s windows
    recording = two_sentences(media, silence_after=25)
    client = TestClient(build_app(Engine(Settings.from_environment({"MYDAY_SPEECH_WINDOW_SECONDS": "30"}))))
    # When it is transcribed with stream=true
    with recording.open("rb") as audio:
        response = client.post(
            "/v1/audio/transcriptions",
            data={
                "model": "whisper-1",
                "response_format": "verbose_json",
                "timestamp_granularities[]": ["word", "segment"],
                "stream": "true",
            },
            files={"file": ("audio.wav", audio)},
        )
    # Then it answers as server-sent events: how far it is, growing to the whole recording, then the whole answer
    assert response.headers["content-type"].startswith("text/event-stream")
    events = [json.loads(line[len("data: ") :]) for line in response.text.split("\n\n") if line.startswith("data: ")]
    deltas, done = events[:-1], events[-1]
    assert {event["type"] for event in deltas} == {"transcript.text.delta"}
    ends = [event["end"] for event in deltas]
    assert len(ends) >= 3 and ends == sorted(ends)
    assert ends[-1] == pytest.approx(done["duration"], abs=0.01)
    assert done["type"] == "transcript.text.done"
    assert "tomatoes" in done["text"].lower() and "sunset" in done["text"].lower(), done["text"]
    assert "".join(event["delta"] for event in deltas).strip() == done["text"]
    sunset = next(word for word in done["words"] if "sunset" in word["word"].lower())
    assert 40 <= sunset["start"] <= 45


def test_a_streamed_request_for_a_file_that_is_not_audio_is_refused_like_any_other(client):
    response = client.post(
        "/v1/audio/transcriptions",
        data={"model": "whisper-1", "stream": "true"},
        files={"file": ("audio.wav", b"this is not audio at all")},
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_audio"
