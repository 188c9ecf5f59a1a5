"""Fixtures for the web app's browser tests: the real myday-server on loopback, a spoken WAV made with
espeak-ng for Chromium's fake microphone, and headless Chromium driven by Selenium (Debian's chromium
and chromedriver; nothing is downloaded)."""
import os
import re
import shutil
import subprocess
import tempfile
import time

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCREENSHOTS = os.path.join(ROOT, ".build", "web-screenshots")
SPOKEN = "today i walked to the park with my sister and we talked about the garden"


class Server:
    """`myday-server serve` on a free loopback port with a fresh data directory."""

    def __init__(self, data, workers="1", port="0", **settings):
        self.data = data
        self.settings = dict(settings, MYDAY_WORKERS=workers)
        binary = os.path.join(ROOT, ".build", "debug", "myday-server")
        env = dict(os.environ, MYDAY_PORT=port, MYDAY_DATA_DIR=data, MYDAY_LOG_LEVEL="info",
                   MYDAY_SECRET="browser-test-secret-that-is-long-enough", **self.settings)
        self.log = open(os.path.join(data, "server.log"), "a+")
        self.process = subprocess.Popen([binary, "serve"], env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            self.log.flush()
            self.log.seek(0)
            match = re.search(r"url=http://[^:\s]+:(\d+)", self.log.read())
            if match:
                self.url = f"http://127.0.0.1:{match.group(1)}"
                return
            if self.process.poll() is not None:
                raise RuntimeError("myday-server exited")
            time.sleep(0.05)
        raise RuntimeError("myday-server did not start")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)

    def start_again(self):
        """The same server (data and port) after `stop()`."""
        self.log.seek(0)
        self.log.truncate()
        again = Server(self.data, port=self.url.rsplit(":", 1)[1], **self.settings)
        self.process, self.log = again.process, again.log


@pytest.fixture
def server():
    data = tempfile.mkdtemp(prefix="myday-web-")
    running = Server(data)
    yield running
    running.stop()
    shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(scope="session")
def speech():
    """A WAV of a diary sentence, spoken twice with a pause, for the fake microphone (Chromium loops it)."""
    folder = tempfile.mkdtemp(prefix="myday-speech-")
    spoken = os.path.join(folder, "spoken.wav")
    subprocess.run(["espeak-ng", "-v", "en-us", "-s", "140", "-w", spoken, SPOKEN], check=True)
    wav = os.path.join(folder, "microphone.wav")
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", spoken, "-af", "apad=pad_dur=1",
                    "-ar", "48000", "-ac", "1", "-c:a", "pcm_s16le", wav], check=True)
    return wav


@pytest.fixture
def browser(speech):
    os.makedirs(SCREENSHOTS, exist_ok=True)
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/lib/chromium/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--use-fake-ui-for-media-stream",
                 "--use-fake-device-for-media-stream", f"--use-file-for-fake-audio-capture={speech}",
                 "--autoplay-policy=no-user-gesture-required", "--window-size=390,844"]:
        options.add_argument(flag)
    downloads = tempfile.mkdtemp(prefix="myday-downloads-")
    options.add_experimental_option("prefs", {"download.default_directory": downloads})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    # The phone's viewport exactly, so screenshots are 390 × 844 like an iPhone 14's.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": False})
    driver.downloads = downloads
    yield driver
    driver.quit()
