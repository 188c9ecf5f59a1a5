"""Audio files decoded as a stream into windows of 16 kHz mono samples, so memory stays flat in the length."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

import av
import numpy as np

SAMPLE_RATE = 16_000
# A window ends at the quietest tenth of a second of its last ten seconds, so a cut falls between words.
_CUT_SEARCH_SECONDS = 10.0
_CUT_BLOCK_SAMPLES = SAMPLE_RATE // 10


class AudioError(ValueError):
    """The file is not audio this service can decode."""


@dataclass(frozen=True)
class Window:
    """`samples` (float32 in [-1, 1]) starting `offset` seconds into the recording."""

    offset: float
    samples: np.ndarray

    @property
    def duration(self) -> float:
        return len(self.samples) / SAMPLE_RATE


def windows(source: str | BinaryIO, window_seconds: float) -> Iterator[Window]:
    """Decodes `source`, a path or an open file in any format FFmpeg reads, in windows of about `window_seconds`."""
    window = int(window_seconds * SAMPLE_RATE)
    pending: list[np.ndarray] = []
    pending_length = 0
    offset = 0
    for chunk in _decoded(source):
        pending.append(chunk)
        pending_length += len(chunk)
        if pending_length < window + _CUT_BLOCK_SAMPLES:
            continue
        buffered = np.concatenate(pending)
        cut = _quietest_cut(buffered[:window])
        yield Window(offset / SAMPLE_RATE, buffered[:cut].astype(np.float32) / 32768.0)
        offset += cut
        pending, pending_length = [buffered[cut:]], len(buffered) - cut
    if pending_length:
        yield Window(offset / SAMPLE_RATE, np.concatenate(pending).astype(np.float32) / 32768.0)


def _decoded(source: str | BinaryIO) -> Iterator[np.ndarray]:
    """The file's first audio stream as int16 mono 16 kHz chunks, as FFmpeg decodes and resamples them."""
    try:
        container = av.open(source, mode="r", metadata_errors="ignore")
    except (av.error.FFmpegError, UnicodeDecodeError) as error:
        raise AudioError("The file is not audio that can be decoded.") from error
    with container:
        if not container.streams.audio:
            raise AudioError("The file has no audio.")
        stream = container.streams.audio[0]
        resampler = av.AudioResampler(format="s16", layout="mono", rate=SAMPLE_RATE)
        try:
            for frame in container.decode(stream):
                for resampled in resampler.resample(frame):
                    yield resampled.to_ndarray().reshape(-1)
            for resampled in resampler.resample(None):
                yield resampled.to_ndarray().reshape(-1)
        except av.error.FFmpegError as error:
            raise AudioError("The audio could not be decoded to its end.") from error


def _quietest_cut(samples: np.ndarray) -> int:
    """The middle of the quietest block in the last `_CUT_SEARCH_SECONDS` of `samples`."""
    search = min(len(samples), int(_CUT_SEARCH_SECONDS * SAMPLE_RATE))
    start = len(samples) - search
    blocks = search // _CUT_BLOCK_SAMPLES
    if blocks < 2:
        return len(samples)
    tail = samples[start : start + blocks * _CUT_BLOCK_SAMPLES].astype(np.float32).reshape(blocks, _CUT_BLOCK_SAMPLES)
    energy = np.mean(tail * tail, axis=1)
    return start + int(np.argmin(energy)) * _CUT_BLOCK_SAMPLES + _CUT_BLOCK_SAMPLES // 2
