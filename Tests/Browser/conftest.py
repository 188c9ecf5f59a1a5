"""Fixtures for the web app's browser tests: the real myday-server on loopback, a spoken WAV made with
espeak-ng for Chromium's fake microphone, and headless Chromium driven by Selenium (see harness.py, which
`bench/web` shares)."""
import os
import shutil
import tempfile

import pytest

from harness import SCREENSHOTS, Server, make_speech, quit_chromium, start_chromium


@pytest.fixture
def server():
    data = tempfile.mkdtemp(prefix="myday-web-")
    running = Server(data)
    yield running
    running.stop()
    shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(scope="session")
def speech():
    """A WAV of a diary sentence, spoken with a pause after it, for the fake microphone (Chromium loops it)."""
    folder = tempfile.mkdtemp(prefix="myday-speech-")
    yield make_speech(folder)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def browser(speech):
    os.makedirs(SCREENSHOTS, exist_ok=True)
    driver = start_chromium(speech)
    yield driver
    quit_chromium(driver)
