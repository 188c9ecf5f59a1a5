"""The speech service's settings, each from an environment variable; the defaults are chosen for diaries."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path


class SettingsError(ValueError):
    """A setting's value cannot be used; the message names the variable."""


def _installed_model() -> str:
    """The Whisper base model the installer puts beside this service's virtual environment, else its name."""
    beside = Path(sys.prefix).parent / "models" / "whisper-base"
    return str(beside) if (beside / "model.bin").is_file() else "base"


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 0
    model: str = "base"
    model_name: str = "whisper-base"
    device: str = "cpu"
    compute_type: str = "int8"
    concurrency: int = 1
    cpu_threads: int = 0
    beam_size: int = 5
    vad: bool = True
    condition_on_previous_text: bool = False
    word_timestamps: bool = True
    window_seconds: float = 120.0
    max_upload_bytes: int = 2 * 1024 * 1024 * 1024

    @property
    def threads_per_transcription(self) -> int:
        """CPU threads for each of the `concurrency` transcriptions; by default the cores shared between them."""
        return self.cpu_threads or max(1, (os.cpu_count() or 1) // self.concurrency)

    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        model = env.get("MYDAY_SPEECH_MODEL") or _installed_model()
        device = env.get("MYDAY_SPEECH_DEVICE", "cpu")
        return cls(
            host=env.get("MYDAY_SPEECH_HOST", "127.0.0.1"),
            port=_integer(env, "MYDAY_SPEECH_PORT", 0, low=0, high=65535),
            model=model,
            model_name=env.get("MYDAY_SPEECH_MODEL_NAME") or _model_name(model),
            device=device,
            compute_type=env.get("MYDAY_SPEECH_COMPUTE_TYPE") or ("int8" if device == "cpu" else "default"),
            concurrency=_integer(env, "MYDAY_SPEECH_CONCURRENCY", 1, low=1, high=64),
            cpu_threads=_integer(env, "MYDAY_SPEECH_CPU_THREADS", 0, low=0, high=256),
            beam_size=_integer(env, "MYDAY_SPEECH_BEAM_SIZE", 5, low=1, high=20),
            vad=_boolean(env, "MYDAY_SPEECH_VAD", True),
            condition_on_previous_text=_boolean(env, "MYDAY_SPEECH_CONDITION_ON_PREVIOUS_TEXT", False),
            word_timestamps=_boolean(env, "MYDAY_SPEECH_WORD_TIMESTAMPS", True),
            window_seconds=float(_integer(env, "MYDAY_SPEECH_WINDOW_SECONDS", 120, low=30, high=3600)),
            max_upload_bytes=_integer(env, "MYDAY_SPEECH_MAX_UPLOAD_BYTES", 2 * 1024 * 1024 * 1024, low=1, high=2**40),
        )


def _model_name(model: str) -> str:
    """`/x/models/whisper-base` → `whisper-base`; `large-v3` → `whisper-large-v3`; `org/repo` stays."""
    if "/" in model and not Path(model).exists():
        return model
    name = Path(model).name
    return name if name.startswith(("whisper", "distil")) else f"whisper-{name}"


def _integer(env, name: str, default: int, *, low: int, high: int) -> int:
    text = env.get(name)
    if text is None or text == "":
        return default
    try:
        value = int(text)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, not {text!r}.") from None
    if not low <= value <= high:
        raise SettingsError(f"{name} must be from {low} to {high}, not {value}.")
    return value


def _boolean(env, name: str, default: bool) -> bool:
    text = env.get(name)
    if text is None or text == "":
        return default
    if text.lower() in ("1", "true", "yes", "on"):
        return True
    if text.lower() in ("0", "false", "no", "off"):
        return False
    raise SettingsError(f"{name} must be true or false, not {text!r}.")
