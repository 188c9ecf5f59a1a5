"""`python -m myday_speech` as the server starts it: ready line, health over HTTP, gone when its parent is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request


def test_the_service_says_where_it_listens_and_ends_when_its_standard_input_closes():
    # Given the service started the way the server starts it, on a free port
    environment = dict(os.environ, MYDAY_SPEECH_PORT="0", MYDAY_SPEECH_CONCURRENCY="2")
    child = subprocess.Popen(
        [sys.executable, "-m", "myday_speech", "--exit-when-stdin-closes"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=environment,
        text=True,
    )
    try:
        # When it is ready it prints its address, and answers there
        line = child.stdout.readline()
        assert line.startswith("listening on http://127.0.0.1:") and line.split()[3:] == ["model", "whisper-base"], line
        with urllib.request.urlopen(line.split()[2] + "/health", timeout=60) as response:
            health = json.load(response)
        assert health["status"] == "ok"
        assert health["concurrency"] == 2
        # Then, once the process that started it closes its standard input (as a killed server's would), it ends
        child.stdin.close()
        assert child.wait(timeout=60) == 0
    finally:
        child.kill()
        child.wait()


def test_a_bad_setting_stops_the_service_with_its_name():
    environment = dict(os.environ, MYDAY_SPEECH_BEAM_SIZE="many")
    result = subprocess.run(
        [sys.executable, "-m", "myday_speech"], env=environment, capture_output=True, text=True, timeout=60
    )
    assert result.returncode != 0
    assert "MYDAY_SPEECH_BEAM_SIZE" in result.stderr
