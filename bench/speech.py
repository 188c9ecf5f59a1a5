"""Whisper (the speech service) next to PocketSphinx, on the same audio in one run.

1. The speech service alone (`python -m myday_speech`, files POSTed to it): real-time factor and word error rate on
   diary sentences spoken by espeak-ng (two voices, AAC) and on people reading (Debian's pocketsphinx-testdata).
2. PocketSphinx (`myday-server transcribe`, MYDAY_SPEECH_SERVICE=off) on the same files.
3. Whisper through the whole pipeline (upload, complete → transcribed, in `myday-server serve`, timed to the server's
   commit of the transcript) on the same 60 s and 10 min files: the pipeline's overhead is that wall time less the
   time the server itself measured waiting for the engine (its `recognize` stage, read from /metrics), so both come
   from one run; the service alone on the same files, taking turns, for comparison.
4. Peak and median RSS of the server and of the service while they transcribe recordings of 1, 10 and 60 minutes
   (`BENCH_SPEECH_MINUTES`, e.g. 1,10,60,180).
5. Throughput with 2 worker slots: audio minutes per wall minute.
Results are printed and written to bench/results/speech.md.
"""

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from datetime import datetime

import httpx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from transcription import (
    BINARY,
    ROOT,
    SENTENCES,
    VOICES,
    Server,
    build_server,
    long_audio,
    measured,
    rss_mb,
    speak,
    wait_transcribed,
)

sys.path.insert(0, os.path.join(ROOT, "Services/speech/tests"))
from wer import normalized, word_error_rate

HUMAN = "/usr/share/pocketsphinx/test/data"
LENGTHS = [
    int(minutes)
    for minutes in os.environ.get("BENCH_SPEECH_MINUTES", "1,10,60").split(",")
]


def duration(path):
    probe = subprocess.run(
        [
            "ffprobe",
            "-v",
            "error",
            "-show_entries",
            "format=duration",
            "-of",
            "csv=p=0",
            path,
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    return float(probe.stdout)


def labelled_sets(folder):
    """(name, [(path, reference)]) for the synthesized and the human set."""
    synthesized = []
    for voice in VOICES:
        for index, sentence in enumerate(SENTENCES):
            path = os.path.join(folder, f"{voice}-{index}.m4a")
            speak(sentence, voice, path)
            synthesized.append((path, sentence))
    human = []
    with open(f"{HUMAN}/cards/cards.transcription") as transcription:
        lines = transcription.read().splitlines()
    for line in lines:
        if line.strip():
            human.append(
                (
                    f"{HUMAN}/cards/{line.split('(')[1][:3]}.wav",
                    line.split("<s>")[1].split("</s>")[0],
                )
            )
    goforward = os.path.join(folder, "goforward.wav")
    subprocess.run(
        [
            "ffmpeg",
            "-nostdin",
            "-y",
            "-loglevel",
            "error",
            "-f",
            "s16le",
            "-ar",
            "16000",
            "-ac",
            "1",
            "-i",
            f"{HUMAN}/goforward.raw",
            goforward,
        ],
        check=True,
    )
    human.append((goforward, "go forward ten meters"))
    return [
        ("espeak-ng diary sentences, 2 voices", synthesized),
        ("people reading (pocketsphinx-testdata)", human),
    ]


class SpeechService:
    """The speech service on its own, as `myday-server` starts it."""

    def __init__(self):
        python = os.path.join(ROOT, ".build/speech/venv/bin/python")
        self.process = subprocess.Popen(
            [python, "-m", "myday_speech", "--exit-when-stdin-closes"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=dict(os.environ, MYDAY_SPEECH_PORT="0", HF_HUB_OFFLINE="1"),
        )
        self.url = self.process.stdout.readline().split()[2]

    def transcribe(self, path):
        """Wall seconds and text for one file, asked for as the server asks (segments and words with their times)."""
        started = time.monotonic()
        with open(path, "rb") as file:
            response = httpx.post(
                self.url + "/v1/audio/transcriptions",
                timeout=3600,
                data={
                    "model": "whisper-1",
                    "response_format": "verbose_json",
                    "timestamp_granularities[]": ["word", "segment"],
                },
                files={"file": file},
            )
        response.raise_for_status()
        return time.monotonic() - started, response.json()["text"]

    def stop(self):
        self.process.stdin.close()
        self.process.wait(timeout=60)


def pocketsphinx(path):
    env = dict(os.environ, MYDAY_LOG_LEVEL="error", MYDAY_SPEECH_SERVICE="off")
    wall, _, output = measured([BINARY, "transcribe", path], env)
    return wall, json.loads(output)["raw"]


def accuracy(engine, files):
    """WER over the whole set, and the real-time factor."""
    wall = audio = 0.0
    expected, heard = [], []
    for path, reference in files:
        seconds, text = engine(path)
        wall += seconds
        audio += duration(path)
        expected.append(reference)
        heard.append(text)
    errors = word_error_rate(" ".join(expected), " ".join(heard))
    return errors, len(normalized(" ".join(expected))), wall / audio


def stage_seconds(server):
    """Seconds the server has spent in each transcription stage so far (`decode`, `recognize`, `clean`), from the sums of
    its own `/metrics` histograms."""
    with urllib.request.urlopen(server.base + "/metrics", timeout=60) as response:
        text = response.read().decode()
    pattern = (
        r'myday_transcription_stage_duration_seconds_sum\{stage="(\w+)"\} ([0-9.e+-]+)'
    )
    return {stage: float(value) for stage, value in re.findall(pattern, text)}


def transcribed_in(server, path):
    """Wall seconds from sending `complete` to the server's commit of the transcript (the entry's `updated_at`, on this
    machine's clock), so the bench's own polling adds nothing to the figure; and the seconds of it the server itself
    measured waiting for the engine (its `recognize` stage: the PCM streamed to the service and its answer)."""
    entry_id = server.upload(path)
    before = stage_seconds(server)
    started = time.time()
    server.complete(entry_id)
    wait_transcribed(server, [entry_id])
    updated = server.call("GET", f"/v1/entries/{entry_id}")["updated_at"]
    engine = stage_seconds(server).get("recognize", 0) - before.get("recognize", 0)
    return datetime.fromisoformat(updated).timestamp() - started, engine


def peak_rss_while_transcribing(path):
    """Peak RSS (MB) of the server and of its speech service from complete to transcribed, the service's median (what
    it holds between the peaks of its windows), and the wall seconds."""
    server = Server(workers=1)
    try:
        server.wait_for_speech()
        service = server.speech_service_pid()
        entry_id = server.upload(path)
        peaks = {"server": server.rss_mb(), "service": rss_mb(service)}
        samples = []
        done = threading.Event()

        def sample():
            while not done.is_set():
                peaks["server"] = max(peaks["server"], server.rss_mb())
                samples.append(rss_mb(service))
                peaks["service"] = max(peaks["service"], samples[-1])
                done.wait(0.2)

        sampler = threading.Thread(target=sample)
        sampler.start()
        started = time.monotonic()
        server.complete(entry_id)
        wait_transcribed(server, [entry_id])
        wall = time.monotonic() - started
        done.set()
        sampler.join()
        peaks["service median"] = statistics.median(samples) if samples else 0
        return peaks, wall
    finally:
        server.stop()


def table(rows):
    return "| measurement | result |\n|---|---|\n" + "".join(
        f"| {a} | {b} |\n" for a, b in rows
    )


class Rows(list):
    """The results so far, written to bench/results/speech.md after each one, so a long run's early figures stay."""

    def append(self, row):
        super().append(row)
        os.makedirs(os.path.join(ROOT, "bench/results"), exist_ok=True)
        with open(os.path.join(ROOT, "bench/results/speech.md"), "w") as f:
            f.write(table(self))


def main():
    build_server()
    folder = tempfile.mkdtemp(prefix="myday-bench-speech-")
    rows = Rows()
    try:
        # 1 and 2: accuracy and speed of each engine on the same files.
        service = SpeechService()
        try:
            for name, files in labelled_sets(folder):
                for engine, label in [
                    (service.transcribe, "Whisper base (service)"),
                    (pocketsphinx, "PocketSphinx"),
                ]:
                    errors, words, rtf = accuracy(engine, files)
                    rows.append(
                        (
                            f"{label}: {name}",
                            f"WER {errors:.1%} of {words} words; RTF {rtf:.3f}",
                        )
                    )
            minute = os.path.join(folder, "60s.m4a")
            long_audio(folder, 60, minute)
            ten = os.path.join(folder, "600s.m4a")
            long_audio(folder, 600, ten)

            # 3: the pipeline around the engine, on the same files. The service alone and the server take turns
            # (the machine is shared: measured one after the other, a drift in its load reads as overhead), and
            # each figure is the best of two.
            server = Server(workers=1)
            try:
                server.wait_for_speech()
                alone, pipeline = {60: [], 600: []}, {60: [], 600: []}
                for seconds, path in [(60, minute), (600, ten)]:
                    for _ in range(2):
                        alone[seconds].append(service.transcribe(path)[0])
                        pipeline[seconds].append(transcribed_in(server, path))
                alone = {seconds: min(times) for seconds, times in alone.items()}
                pipeline = {seconds: min(runs) for seconds, runs in pipeline.items()}
            finally:
                server.stop()
        finally:
            service.stop()
        for seconds, name in [(60, "60 s"), (600, "10 min")]:
            (whole, engine), apart = pipeline[seconds], alone[seconds]
            rows.append(
                (
                    f"{name} entry: complete → transcribed / of it, waiting for the engine / the service alone",
                    f"{whole:.2f} s (RTF {whole / seconds:.3f}) / {engine:.2f} s / {apart:.2f} s (RTF {apart / seconds:.3f})",
                )
            )
            # The server's own work (probe, claim, decode, cleanup, commits) is the wall time less the time it waited
            # for the engine, both from the same run: a difference of two separate noisy runs would mostly be noise.
            rows.append(
                (
                    f"{name} entry: pipeline overhead (the server's own work)",
                    f"{(whole - engine) / engine:+.1%} of the engine's time ({whole - engine:.2f} s)",
                )
            )
            rows.append(
                (
                    f"{name} entry: the engine asked by the server (16 kHz PCM) next to alone (the upload itself)",
                    f"{(engine - apart) / apart:+.1%} (separate runs, taking turns; the machine's noise is in it)",
                )
            )

        # 4: memory with recording length.
        for minutes in LENGTHS:
            path = os.path.join(folder, f"{minutes}min.m4a")
            long_audio(folder, minutes * 60, path)
            peaks, wall = peak_rss_while_transcribing(path)
            rows.append(
                (
                    f"{minutes} min entry: peak RSS server / service (service median)",
                    (
                        f"{peaks['server']:.0f} MB / {peaks['service']:.0f} MB ({peaks['service median']:.0f} MB) "
                        f"({wall:.0f} s, RTF {wall / (minutes * 60):.3f})"
                    ),
                )
            )

        # 5: throughput with two slots.
        server = Server(workers=2)
        try:
            server.wait_for_speech()
            ids = [server.upload(minute) for _ in range(10)]
            started = time.monotonic()
            for entry_id in ids:
                server.complete(entry_id)
            wait_transcribed(server, ids)
            wall = time.monotonic() - started
        finally:
            server.stop()
        rows.append(
            (
                "10 entries of 60 s, 2 worker slots",
                f"{wall:.1f} s: {10 / (wall / 60):.2f} audio minutes per wall minute",
            )
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    print(table(rows))


if __name__ == "__main__":
    sys.exit(main())
