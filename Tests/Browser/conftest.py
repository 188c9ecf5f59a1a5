"""Fixtures for the web app's browser tests: the real myday-server on loopback, a spoken WAV made with
espeak-ng for Chromium's fake microphone, and headless Chromium driven by Selenium (see harness.py, which
`bench/web` shares)."""
import os
import shutil
import tempfile

import pytest

from harness import (SCREENSHOTS, Server, begin_test, end_test, is_running, make_speech, outbox_details, quit_chromium,
                     start_chromium)


@pytest.fixture
def server(request):
    """`myday-server` on a fresh data directory. Its worker transcribes with Whisper in tests marked `whisper`; the
    others read no transcript and get PocketSphinx."""
    data = tempfile.mkdtemp(prefix="myday-web-")
    running = Server(data, whisper=request.node.get_closest_marker("whisper") is not None)
    yield running
    running.stop()
    shutil.rmtree(data, ignore_errors=True)


@pytest.fixture
def bucket():
    """An S3-compatible bucket on loopback that checks every signature (Tests/Tools/s3_server.py): a dict with its
    settings for myday-server and a boto3 client (for its CORS rule and a look inside)."""
    import subprocess
    import sys

    import boto3

    tool = os.path.join(os.path.dirname(__file__), "..", "Tools", "s3_server.py")
    process = subprocess.Popen([sys.executable, tool], stdout=subprocess.PIPE, stdin=subprocess.PIPE, text=True)
    _, port, name, key, secret = process.stdout.readline().split()
    endpoint = f"http://127.0.0.1:{port}"
    yield {
        "settings": {"MYDAY_S3_BUCKET": name, "MYDAY_S3_ENDPOINT": endpoint, "MYDAY_S3_ACCESS_KEY_ID": key,
                     "MYDAY_S3_SECRET_ACCESS_KEY": secret, "MYDAY_S3_REGION": "us-east-1"},
        "client": boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id=key,
                               aws_secret_access_key=secret),
        "name": name, "endpoint": endpoint,
    }
    process.stdin.close()
    process.wait(timeout=30)


@pytest.fixture(scope="session")
def speech():
    """A WAV of a diary sentence, spoken with a pause after it, for the fake microphone (Chromium loops it)."""
    folder = tempfile.mkdtemp(prefix="myday-speech-")
    yield make_speech(folder)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def chromium(speech):
    """One headless Chromium for this test process (starting one costs about two seconds of processor time); a test
    that ends it gets a new one."""
    started = []
    yield started
    for driver in started:
        quit_chromium(driver)


@pytest.fixture
def browser(request, chromium, speech):
    """A tab of the shared Chromium, with nothing of the tests before it: no tab, cookie, site data or permission. A
    test marked `new_chromium` gets a Chromium of its own."""
    os.makedirs(SCREENSHOTS, exist_ok=True)
    if request.node.get_closest_marker("new_chromium") is not None:
        driver = start_chromium(speech)
        yield driver
        quit_chromium(driver)
        return
    driver = chromium[-1] if chromium and is_running(chromium[-1]) else None
    try:
        if driver is not None:
            begin_test(driver)
    except Exception:  # something a failed test left (an open dialog) holds a tab: start anew
        quit_chromium(driver)
        driver = None
    if driver is None:
        driver = start_chromium(speech)
        chromium.append(driver)
        begin_test(driver)
    first_server = len(Server.origins)
    yield driver
    try:
        end_test(driver, Server.origins[first_server:])
    except Exception:  # the test ended Chromium, or left it unable to forget: the next test gets a new one
        quit_chromium(driver)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing test's report carries what explains it: the browser's outbox with each item's last
    error, the page's console, and the server's log."""
    report = yield
    if report.when == "call" and report.failed:
        server, driver = item.funcargs.get("server"), item.funcargs.get("browser")
        if driver is not None:
            report.sections.append(("the browser's outbox", _safely(lambda: outbox_details(driver))))
            report.sections.append(("the page's console", _safely(lambda: "\n".join(
                f"{entry['level']} {entry['message']}" for entry in driver.get_log("browser")))))
            _keep_chromium_log(item, driver)
        if server is not None:
            report.sections.append(("the server's log (last 80 lines)", _safely(
                lambda: "".join(server.read_log().splitlines(keepends=True)[-80:]))))
    return report


def _keep_chromium_log(item, driver):
    """Copies what Chromium printed during a failed test to the screenshots folder, where it outlives a rerun."""
    if os.path.exists(driver.chromium_log):
        name = "".join(c if c.isalnum() or c in "-_" else "-" for c in item.name)
        with open(driver.chromium_log, "rb") as log, open(os.path.join(SCREENSHOTS, f"{name}-chromium.log"), "wb") as kept:
            log.seek(getattr(driver, "chromium_log_start", 0))
            shutil.copyfileobj(log, kept)


def _safely(describe):
    try:
        return str(describe())
    except Exception as error:  # the browser or server may be the thing that failed
        return f"(unavailable: {error!r})"
