"""What the web app's browser tests and `bench/web` share: the real myday-server on loopback, a spoken WAV
made with espeak-ng for Chromium's fake microphone, headless Chromium driven by Selenium (Debian's chromium
and chromedriver; nothing is downloaded), and waits on conditions with a deadline (never a fixed sleep)."""
import os
import re
import shutil
import subprocess
import tempfile
import time
import uuid

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCREENSHOTS = os.path.join(ROOT, ".build", "web-screenshots")
SPOKEN = "today i walked to the park with my sister and we talked about the garden"
PASSWORD = "a long diary password"
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": False}
# Generous on purpose: on a loaded machine a condition that holds eventually must not fail for being slow.
DEADLINE = 60


def poll(condition, timeout=DEADLINE, message="condition not met", every=0.05):
    """Calls `condition()` until it answers something truthy, and answers that; fails after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise TimeoutError(f"{message} (after {timeout} s)")
        time.sleep(every)


def wait(driver, condition, timeout=DEADLINE, message="", every=0.1):
    """Selenium's wait for `condition(driver)` to be truthy; answers its value."""
    # The page may draw a list again between finding an element and reading it: try again then, as when it is missing.
    ignored = (NoSuchElementException, StaleElementReferenceException)
    return WebDriverWait(driver, timeout, poll_frequency=every, ignored_exceptions=ignored).until(
        lambda d: condition(d), message)


class Server:
    """`myday-server serve` on a free loopback port with a fresh data directory. Its worker transcribes with Whisper
    only when `whisper` is true; otherwise with PocketSphinx, which leaves Chromium the processor Whisper would take."""

    # The origin of every server this process started, in order: what a shared browser forgets after each test.
    origins = []

    def __init__(self, data, workers="1", port="0", whisper=False, **settings):
        self.data = data
        self.whisper = whisper
        self.settings = dict(settings, MYDAY_WORKERS=workers)
        if not whisper:
            self.settings["MYDAY_SPEECH_SERVICE"] = "off"
        binary = os.environ.get("MYDAY_SERVER_BINARY") or os.path.join(ROOT, ".build", "debug", "myday-server")
        # bcrypt at its lowest cost: every test signs someone in, and cost 12 is checked by ServerProcessTests.
        env = dict(os.environ, MYDAY_PORT=port, MYDAY_DATA_DIR=data, MYDAY_LOG_LEVEL="info", MYDAY_TEST_BCRYPT_COST="4",
                   MYDAY_SECRET="9e2b7c4a1f8d3e6b0c5a9f2d7e1b4c8a3f6d0e9b2c7a5f1d4e8b3c6a0f9d2e7b", **self.settings)
        self.log = open(os.path.join(data, "server.log"), "a+")
        self.process = subprocess.Popen([binary, "serve"], env=env, stdout=self.log, stderr=subprocess.STDOUT)

        def listening():
            if self.process.poll() is not None:
                raise RuntimeError(f"myday-server exited with {self.process.returncode}:\n{self.read_log()}")
            return re.search(r"url=http://[^:\s]+:(\d+)", self.read_log())

        try:
            match = poll(listening, message="myday-server did not start")
        except TimeoutError:
            self.stop()
            raise
        self.url = f"http://127.0.0.1:{match.group(1)}"
        Server.origins.append(self.url)

    def read_log(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def start_again(self):
        """The same server (data and port) after `stop()`."""
        self.log.seek(0)
        self.log.truncate()
        again = Server(self.data, port=self.url.rsplit(":", 1)[1], whisper=self.whisper, **self.settings)
        self.process, self.log = again.process, again.log


def make_speech(folder):
    """A WAV of a diary sentence followed by a second of silence, for the fake microphone (Chromium loops it)."""
    spoken = os.path.join(folder, "spoken.wav")
    subprocess.run(["espeak-ng", "-v", "en-us", "-s", "140", "-w", spoken, SPOKEN], check=True)
    wav = os.path.join(folder, "microphone.wav")
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", spoken, "-af", "apad=pad_dur=1",
                    "-ar", "48000", "-ac", "1", "-c:a", "pcm_s16le", wav], check=True)
    return wav


def start_chromium(microphone_wav):
    """Headless Chromium with the phone's viewport (390 × 844, like an iPhone 14) and `microphone_wav` as its
    microphone. `driver.downloads` is its download folder and `driver.chromium_log` what Chromium itself printed (a
    crashed renderer says why there); `quit_chromium` removes both."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/lib/chromium/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--use-fake-ui-for-media-stream",
                 "--use-fake-device-for-media-stream", f"--use-file-for-fake-audio-capture={microphone_wav}",
                 "--autoplay-policy=no-user-gesture-required", "--window-size=390,844"]:
        options.add_argument(flag)
    downloads = tempfile.mkdtemp(prefix="myday-downloads-")
    options.add_experimental_option("prefs", {"download.default_directory": downloads})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    chromium_log = os.path.join(downloads, "..", os.path.basename(downloads) + "-chromium.log")
    service = Service("/usr/bin/chromedriver", service_args=["--enable-chrome-logs"], log_output=chromium_log)
    driver = webdriver.Chrome(service=service, options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    driver.downloads = downloads
    driver.chromium_log = chromium_log
    return driver


def is_running(driver):
    """Whether Chromium still answers (a test may have ended it)."""
    try:
        return bool(driver.window_handles)
    except Exception:  # its process or chromedriver is gone
        return False


def begin_test(driver):
    """Leaves `driver` as a new Chromium would be for the next test: one new tab with the phone's viewport (a tab's
    emulation, network conditions and injected scripts end with it), an empty download folder and a drained console.
    `driver.chromium_log_start` is where this test's part of Chromium's own log begins."""
    earlier = driver.window_handles
    driver.switch_to.new_window("tab")
    tab = driver.current_window_handle
    for handle in earlier:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(tab)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    for name in os.listdir(driver.downloads):
        os.remove(os.path.join(driver.downloads, name))
    driver.get_log("browser")
    driver.chromium_log_start = os.path.getsize(driver.chromium_log) if os.path.exists(driver.chromium_log) else 0


def end_test(driver, origins):
    """Forgets what a test left in the browser: every site's data of `origins` (storage, service workers, cache),
    every cookie (they are kept per host, not per port, so one server's would reach the next), every permission, and
    network conditions set for the whole browser (`set_network_conditions`)."""
    try:
        driver.delete_network_conditions()
    except WebDriverException:  # none were set
        pass
    for origin in origins:
        driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    driver.execute_cdp_cmd("Storage.clearCookies", {})
    driver.execute_cdp_cmd("Browser.resetPermissions", {})


def quit_chromium(driver):
    try:
        driver.quit()
    except Exception:  # a Chromium that was ended answers no more
        pass
    shutil.rmtree(driver.downloads, ignore_errors=True)
    if os.path.exists(driver.chromium_log):
        os.remove(driver.chromium_log)


def register(driver, server, email=None):
    """Signs up a new user through the web app's own form; answers the email."""
    email = email or f"web-{uuid.uuid4().hex[:8]}@example.com"
    driver.get(server.url + "/")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"))
    driver.find_element(By.CSS_SELECTOR, "[data-action=switch]").click()
    driver.find_element(By.NAME, "email").send_keys(email)
    driver.find_element(By.NAME, "password").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "[data-slot=submit]").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot=record]"), message="not signed in")
    return email


def sign_in(driver, server, email, password=PASSWORD):
    """Signs in to an existing account through the web app's own form."""
    driver.get(server.url + "/")
    form = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-form=signin]"))
    form.find_element(By.NAME, "email").send_keys(email)
    form.find_element(By.NAME, "password").send_keys(password)
    form.find_element(By.CSS_SELECTOR, "[data-slot=submit]").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot=record]"), message="not signed in")


def type_entry(driver, text):
    """Saves a typed entry from Home with "Type instead"."""
    driver.find_element(By.CSS_SELECTOR, "[data-action=type]").click()
    driver.find_element(By.NAME, "text").send_keys(text)
    driver.find_element(By.CSS_SELECTOR, "[data-form=typed] button[type=submit]").click()
    wait(driver, lambda d: not d.find_element(By.CSS_SELECTOR, "[data-form=typed]").is_displayed(), message="the typed entry was not saved")


def record_button(driver):
    return driver.find_element(By.CSS_SELECTOR, "[data-slot=record]")


def label(driver):
    return record_button(driver).get_attribute("aria-label")


def start_recording(driver):
    record_button(driver).click()
    wait(driver, lambda d: label(d) == "Recording — tap to pause", message="recording did not start")


def elapsed_seconds(driver):
    """The recorder's own clock as the home view shows it (m:ss or h:mm:ss, whole seconds)."""
    seconds = 0
    for part in driver.find_element(By.CSS_SELECTOR, "[data-slot=elapsed]").text.strip().split(":"):
        seconds = seconds * 60 + int(part)
    return seconds


def wait_until_recorded(driver, seconds):
    """Waits until the recorder's clock shows `seconds` (pauses excluded), however slow the machine is."""
    wait(driver, lambda d: elapsed_seconds(d) >= seconds, timeout=DEADLINE + seconds,
         message=f"the recorder's clock never reached {seconds} s")


def outbox_details(driver):
    """Each item the browser still holds for the server, with its state, attempts and last error."""
    return driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        import('/app/db.js').then((db) => db.all('outbox'))
          .then((items) => done(items.map(({ id, kind, state, attempts, lastError }) => ({ id, kind, state, attempts, lastError }))),
                (e) => done(String(e)));""")
