"""Whisper through faster-whisper: one model shared by every transcription, long recordings in windows."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import BinaryIO

import numpy as np
from faster_whisper import WhisperModel
from faster_whisper.tokenizer import _LANGUAGE_CODES

from .audio import SAMPLE_RATE, Window, windows
from .guard import kept_segments
from .memory import release_freed_memory
from .settings import Settings

log = logging.getLogger("myday_speech")

# OpenAI's rule for temperature 0: start greedy, and step up when a window's text fails the quality checks.
FALLBACK_TEMPERATURES = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)
LANGUAGES = frozenset(_LANGUAGE_CODES)
# Whisper often drops the first word of audio that starts with speech: each window is heard with silence around it
# (measured by bench/names: word error on sentences without names 9.6% → 8.1%, names right 34 → 43 of 100).
SILENCE_BEFORE = 1.0
SILENCE_AFTER = 0.5


class Stopped(Exception):
    """The caller no longer wants the transcript (its client went away); the work done so far is dropped."""


@dataclass(frozen=True)
class Word:
    start: float
    end: float
    word: str
    probability: float


@dataclass(frozen=True)
class Segment:
    id: int
    seek: int
    start: float
    end: float
    text: str
    tokens: list[int]
    temperature: float
    avg_logprob: float
    compression_ratio: float
    no_speech_prob: float
    words: list[Word] = field(default_factory=list)


@dataclass(frozen=True)
class Transcript:
    language: str | None
    language_probability: float | None
    duration: float
    segments: list[Segment]

    @property
    def text(self) -> str:
        return "".join(segment.text for segment in self.segments).strip()

    @property
    def words(self) -> list[Word]:
        return [word for segment in self.segments for word in segment.words]


class Engine:
    """Loads the configured model once; `transcribe` may be called from `settings.concurrency` threads at once."""

    def __init__(self, settings: Settings):
        self.settings = settings
        started = time.monotonic()
        self.model = WhisperModel(
            settings.model,
            device=settings.device,
            compute_type=settings.compute_type,
            cpu_threads=settings.threads_per_transcription,
            num_workers=settings.concurrency,
        )
        log.info(
            "model %s loaded in %.1f s (%s, %s)",
            settings.model,
            time.monotonic() - started,
            settings.device,
            settings.compute_type,
        )

    def transcribe(
        self,
        source: str | BinaryIO,
        language: str | None = None,
        prompt: str | None = None,
        temperature: float = 0.0,
        should_stop: Callable[[], bool] = lambda: False,
        heard: Callable[[float, list[Segment]], None] = lambda _end, _segments: None,
    ) -> Transcript:
        """Transcribes an audio file (path or open file); `language` (ISO 639-1) is a hint, detected if absent.

        `should_stop` is asked before each window and each segment (about every 30 s of audio): when it answers
        true, `Stopped` is raised, so a recording nobody waits for any more does not hold a slot to its end.
        `heard` is told how far into the recording the engine is (seconds) after each segment it decodes, and after
        each window, with the window's segments as kept.
        """
        settings = self.settings
        temperatures = FALLBACK_TEMPERATURES if temperature == 0 else (temperature,)
        segments: list[Segment] = []
        detected: str | None = None
        probability: float | None = None
        duration = 0.0
        for window in windows(source, settings.window_seconds):
            if should_stop():
                raise Stopped
            duration = window.offset + window.duration
            found, info = self.model.transcribe(
                _with_silence_around(window.samples),
                language=language or detected,
                # The prompt (names) before every 30 s window; not also initial_prompt: doubled, Whisper repeats it.
                hotwords=prompt or None,
                beam_size=settings.beam_size,
                temperature=temperatures,
                vad_filter=settings.vad,
                condition_on_previous_text=settings.condition_on_previous_text,
                word_timestamps=settings.word_timestamps,
            )
            decoded = []
            for segment in _until_stopped(found, should_stop):
                decoded.append(segment)
                heard(_in_recording(segment.end, window), [])
            kept = kept_segments(decoded)
            if detected is None and kept:
                # Later windows keep the language of the first one with speech in it.
                detected, probability = info.language, info.language_probability
            shifted = [_shifted(segment, len(segments) + index, window) for index, segment in enumerate(kept)]
            segments += shifted
            release_freed_memory()
            heard(duration, shifted)
        if language:
            return Transcript(language, 1.0, duration, segments)
        return Transcript(detected, probability if detected else None, duration, segments)


def _until_stopped(segments, should_stop: Callable[[], bool]):
    # faster-whisper decodes lazily: each segment taken from the generator is work done now.
    for segment in segments:
        if should_stop():
            raise Stopped
        yield segment


def _with_silence_around(samples: np.ndarray) -> np.ndarray:
    before = np.zeros(int(SILENCE_BEFORE * SAMPLE_RATE), dtype=np.float32)
    after = np.zeros(int(SILENCE_AFTER * SAMPLE_RATE), dtype=np.float32)
    return np.concatenate([before, samples, after])


def _in_recording(seconds: float, window: Window) -> float:
    """A time in the window heard with silence around it, in seconds from the recording's start."""
    return round(min(max(seconds - SILENCE_BEFORE, 0.0), window.duration) + window.offset, 3)


def _shifted(segment, index: int, window: Window) -> Segment:
    """`segment` of the window heard with silence around it, at its time in the whole recording (never in the
    silence that was added)."""
    return Segment(
        id=index,
        seek=segment.seek,
        start=_in_recording(segment.start, window),
        end=_in_recording(segment.end, window),
        text=segment.text,
        tokens=list(segment.tokens),
        temperature=segment.temperature,
        avg_logprob=segment.avg_logprob,
        compression_ratio=segment.compression_ratio,
        no_speech_prob=segment.no_speech_prob,
        words=[
            Word(_in_recording(word.start, window), _in_recording(word.end, window), word.word, word.probability)
            for word in segment.words or []
        ],
    )
