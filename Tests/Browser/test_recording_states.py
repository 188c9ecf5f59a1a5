"""Recording states that cannot be misread: a paused recording looks paused (its time frozen and shown, Resume and
Save the two actions, Discard asked twice); a long pause closes the microphone and Resume opens it again into the
same recording; the screen stays on while recording; a second tab shows the recording under way instead of starting
another; a recording kept after a reload or a crash is announced; focus lands on the record button after stopping by
keyboard; Stop stays on screen at 200 % zoom and with a large browser font.

Every wait is on a condition with a deadline, never a fixed sleep; nothing asserts on wall-clock time."""
import json
import os
import re
import subprocess
import urllib.request

import pytest
from selenium.common.exceptions import NoAlertPresentException, UnexpectedAlertPresentException, WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import DEADLINE, label, record_button, register, start_recording, wait, wait_until_recorded
from test_web_app import (assert_accessible, assert_clock_stands_still, click, clock, in_page, live, look,
                          outbox, seconds_of, server_entries, text_of)

PAUSED = "Recording paused — tap to resume"
RECORDING = "Recording — tap to pause"

# Headless Chromium has no screen to keep on, so a real wake lock shows nothing: this stand-in for
# navigator.wakeLock, put in the page before the app loads, notes what the app asks of it.
WAKE_LOCK_STAND_IN = """
window.__wakeLog = [];
Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: {
  request: async (type) => {
    const sentinel = new EventTarget();
    sentinel.type = type;
    sentinel.released = false;
    sentinel.release = async () => {
      if (sentinel.released) return;
      sentinel.released = true;
      window.__wakeLog.push('release');
      sentinel.dispatchEvent(new Event('release'));
    };
    window.__wakeLog.push('request');
    window.__wakeSentinel = sentinel;
    return sentinel;
  },
} });
"""

# Notes each microphone stream the page opens (the real ones), and makes a pause close the microphone after a second.
WATCH_MICROPHONE = """
window.__mydayPauseReleaseMs = 1000;
window.__streams = [];
const open = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
navigator.mediaDevices.getUserMedia = async (constraints) => {
  const stream = await open(constraints);
  window.__streams.push(stream);
  return stream;
};
"""


def window(driver, size):
    sizes = {"phone": (390, 844), "desktop": (1280, 900)}
    width, height = sizes[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def shown_actions(driver):
    """The texts of Home's recording actions a person sees, in order."""
    return driver.execute_script(
        "return [...document.querySelectorAll('.home .actions button')].filter((b) => b.getClientRects().length > 0)"
        ".map((b) => b.textContent.trim())")


def discard_text(driver):
    return text_of(driver, ".home [data-action=discard]")


def chunks(driver):
    return in_page(driver, "return (await db.all('chunks')).length")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_paused_recording_looks_paused_and_discard_asks_twice(server, browser, size):
    driver = browser
    window(driver, size)
    register(driver, server)
    start_recording(driver)
    assert shown_actions(driver) == ["Stop"]
    wait_until_recorded(driver, 2)

    # Paused: the time stands still and stays shown; Resume and Save are the actions, then Discard
    record_button(driver).click()
    wait(driver, lambda d: label(d) == PAUSED)
    wait(driver, lambda d: live(d) == "Paused", message="the pause was not announced")
    assert shown_actions(driver) == ["Resume", "Save", "Discard"]
    classes = driver.execute_script(
        "return ['resume', 'stop'].map((a) => document.querySelector(`.home [data-action=${a}]`).className)")
    assert classes == ["primary", "secondary"], classes
    elapsed = driver.find_element(By.CSS_SELECTOR, "[data-slot=elapsed]")
    assert elapsed.is_displayed() and seconds_of(elapsed.text) >= 2
    assert text_of(driver, ".home [data-slot=status]") == "Paused"
    assert_clock_stands_still(driver)
    assert_accessible(driver)
    look(driver, f"home-paused-{size}")

    # Discard asks first; moving away (a press elsewhere, or focus leaving it) takes the question back
    click(driver, ".home [data-action=discard]")
    wait(driver, lambda d: discard_text(d) == "Discard for good?", message="Discard did not ask")
    wait(driver, lambda d: "again" in live(d), message="the question was not announced")
    assert label(driver) == PAUSED
    assert_accessible(driver)
    look(driver, f"home-discard-asked-{size}")
    driver.find_element(By.CSS_SELECTOR, ".home .prompt").click()
    wait(driver, lambda d: discard_text(d) == "Discard", message="a press elsewhere did not take the question back")
    discard = driver.find_element(By.CSS_SELECTOR, ".home [data-action=discard]")
    discard.send_keys(Keys.ENTER)
    wait(driver, lambda d: discard_text(d) == "Discard for good?")
    ActionChains(driver).send_keys(Keys.TAB).perform()
    wait(driver, lambda d: discard_text(d) == "Discard", message="focus leaving did not take the question back")
    assert label(driver) == PAUSED

    # Resume goes on with the same recording, from where it stood
    paused_at = seconds_of(clock(driver))
    click(driver, ".home [data-action=resume]")
    wait(driver, lambda d: label(d) == RECORDING, message="Resume did not resume")
    wait(driver, lambda d: seconds_of(clock(d)) > paused_at, message="the clock did not go on from where it stood")
    assert shown_actions(driver) == ["Stop"]

    # Asked and confirmed: the recording is gone, nothing of it kept or sent
    record_button(driver).click()
    wait(driver, lambda d: label(d) == PAUSED)
    click(driver, ".home [data-action=discard]")
    wait(driver, lambda d: discard_text(d) == "Discard for good?")
    click(driver, ".home [data-action=discard]")
    wait(driver, lambda d: live(d) == "Recording discarded", message="the discard was not announced")
    assert label(driver) == "Record"
    assert clock(driver) == "0:00"
    assert chunks(driver) == 0 and outbox(driver) == []
    assert not driver.find_element(By.ID, "recording-bar").is_displayed()

    # Save, while paused, keeps the recording: one entry
    start_recording(driver)
    wait_until_recorded(driver, 1)
    record_button(driver).click()
    wait(driver, lambda d: label(d) == PAUSED)
    click(driver, ".home [data-action=stop]")
    wait(driver, lambda d: live(d) == "Saved", message="Save did not save")
    wait(driver, lambda d: outbox(d) == [], message="the saved recording was never uploaded")
    assert len(server_entries(server, driver)) == 1


def test_the_recording_bar_says_paused_with_resume_and_save(server, browser):
    driver = browser
    register(driver, server)
    start_recording(driver)
    record_button(driver).click()
    wait(driver, lambda d: label(d) == PAUSED)
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Library]").click()
    wait(driver, lambda d: d.find_element(By.ID, "recording-bar").is_displayed(), message="no recording bar in the Library")
    assert text_of(driver, "#recording-bar [data-slot=recording-state]") == "Paused"
    assert [text_of(driver, f"#recording-bar [data-action={name}]") for name in ("pause", "stop")] == ["Resume", "Save"]


def tracks(driver):
    """The state of each microphone track the page opened, stream by stream."""
    return driver.execute_script("return window.__streams.map((s) => s.getAudioTracks().map((t) => t.readyState))")


def audio_of(server, driver, entry_id, folder):
    """The entry's stored audio, downloaded through its signed link."""
    link = in_page(driver, f"return (await api.call('GET', '/v1/entries/{entry_id}/audio')).url")
    url = link if link.startswith("http") else server.url + link
    path = os.path.join(folder, "recording")
    with urllib.request.urlopen(url) as response, open(path, "wb") as file:
        file.write(response.read())
    return path


def loudest_db(path, start, end):
    """The loudest sample (dBFS) between `start` and `end` seconds of the audio at `path`."""
    found = subprocess.run(["ffmpeg", "-nostdin", "-v", "info", "-ss", str(start), "-to", str(end), "-i", path,
                            "-af", "volumedetect", "-f", "null", "-"], capture_output=True, text=True, check=True).stderr
    return float(re.search(r"max_volume: (-?[\d.]+|-inf) dB", found).group(1).replace("-inf", "-999"))


def test_a_long_pause_closes_the_microphone_and_resume_goes_on_in_the_same_recording(server, browser, tmp_path):
    driver = browser
    register(driver, server)
    driver.execute_script(WATCH_MICROPHONE)
    start_recording(driver)
    wait_until_recorded(driver, 4)
    record_button(driver).click()
    wait(driver, lambda d: label(d) == PAUSED)
    paused_at = clock(driver)
    assert tracks(driver) == [["live"]]

    # Paused longer than the microphone is kept: it is closed (the browser's indicator goes out), and the page says so
    wait(driver, lambda d: tracks(d) == [["ended"]], message="the microphone stayed open during a long pause")
    wait(driver, lambda d: "microphone is off" in text_of(d, ".home [data-slot=status]"), message="the page did not say so")
    assert clock(driver) == paused_at
    assert label(driver) == PAUSED

    # When the microphone cannot be opened again, the recording stays paused and says so (Save would keep it)
    driver.execute_script(
        """const open = navigator.mediaDevices.getUserMedia;
        navigator.mediaDevices.getUserMedia = () => {
          navigator.mediaDevices.getUserMedia = open;
          return Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));
        };""")
    click(driver, ".home [data-action=resume]")
    wait(driver, lambda d: "could not be opened again" in text_of(d, ".home [data-slot=status]"), message="a refused microphone was not told")
    assert label(driver) == PAUSED and clock(driver) == paused_at
    assert shown_actions(driver) == ["Resume", "Save", "Discard"]

    # Resume opens the microphone again and the same recording goes on
    click(driver, ".home [data-action=resume]")
    wait(driver, lambda d: tracks(d) == [["ended"], ["live"]], message="the microphone was not opened again")
    wait(driver, lambda d: label(d) == RECORDING)
    wait_until_recorded(driver, seconds_of(paused_at) + 5)
    stopped_at = seconds_of(clock(driver))
    click(driver, ".home [data-action=stop]")
    wait(driver, lambda d: live(d) == "Saved", message="stopping did not save")
    assert tracks(driver) == [["ended"], ["ended"]]

    # One entry, one file, as long as the recording without its pause, transcribed, with sound on both sides of the pause
    def readable(d):
        entries = server_entries(server, d)
        return entries if [entry["status"] for entry in entries] in (["transcribed"], ["failed"]) else None

    entries = wait(driver, readable, timeout=5 * DEADLINE, message="the recording was never transcribed", every=1)
    assert [entry["status"] for entry in entries] == ["transcribed"], entries
    length = entries[0]["duration_s"]
    assert stopped_at - 0.75 < length < stopped_at + 2.5, (stopped_at, length)
    path = audio_of(server, driver, entries[0]["id"], str(tmp_path))
    decoded = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", path, "-f", "null", "-"], capture_output=True, text=True)
    assert decoded.returncode == 0 and decoded.stderr == "", decoded.stderr
    probed = json.loads(subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration:stream=codec_type",
                                        "-of", "json", path], capture_output=True, text=True, check=True).stdout)
    assert [stream["codec_type"] for stream in probed["streams"]] == ["audio"]
    assert abs(float(probed["format"]["duration"]) - length) < 0.5
    before, after = seconds_of(paused_at), seconds_of(paused_at) + 0.5
    assert loudest_db(path, 0, before) > -35, "no sound before the pause"
    assert loudest_db(path, after, length) > -35, "no sound after the microphone was opened again"

    # And it plays in the browser
    driver.get(server.url + f"/#/entry/{entries[0]['id']}")
    audio = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".detail [data-slot=audio]"))
    played = wait(driver, lambda d: d.execute_script(
        "const a = arguments[0]; return Number.isFinite(a.duration) && a.duration > 0 ? a.duration : 0", audio),
        message="the recording does not play")
    assert abs(played - length) < 0.5


def wake_log(driver):
    return driver.execute_script("return window.__wakeLog")


def test_the_screen_stays_awake_while_recording(server, browser):
    driver = browser
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WAKE_LOCK_STAND_IN})
    register(driver, server)
    assert wake_log(driver) == []
    driver.execute_script("window.__mydayPauseReleaseMs = 1000")
    start_recording(driver)
    wait(driver, lambda d: wake_log(d) == ["request"], message="recording did not keep the screen on")
    assert driver.execute_script("return window.__wakeSentinel.type") == "screen"

    # The browser lets go of the lock when the page is hidden: the page takes it again when it shows
    driver.execute_script("window.__wakeSentinel.released = true; document.dispatchEvent(new Event('visibilitychange'))")
    wait(driver, lambda d: wake_log(d) == ["request", "request"], message="the lock was not taken again")

    # A long pause closes the microphone and lets the screen sleep; resuming keeps it on again
    record_button(driver).click()
    wait(driver, lambda d: wake_log(d)[-1:] == ["release"], message="a long pause kept the screen on")
    click(driver, ".home [data-action=resume]")
    wait(driver, lambda d: label(d) == RECORDING)
    wait(driver, lambda d: wake_log(d) == ["request", "request", "release", "request"], message="resuming did not keep the screen on")

    # Stopping lets it sleep
    click(driver, ".home [data-action=stop]")
    wait(driver, lambda d: live(d) == "Saved")
    assert wake_log(driver)[-1] == "release"
    assert driver.execute_script("return window.__wakeSentinel.released")

    # A browser that refuses the lock still records
    driver.execute_script(
        "navigator.wakeLock.request = () => Promise.reject(new DOMException('Not allowed', 'NotAllowedError'))")
    start_recording(driver)
    wait_until_recorded(driver, 1)
    click(driver, ".home [data-action=stop]")
    wait(driver, lambda d: live(d) == "Saved", message="a refused wake lock stopped the recording")


def elsewhere_text(driver):
    found = driver.find_elements(By.CSS_SELECTOR, ".home [data-slot=elsewhere]")
    return found[0].text if found and found[0].is_displayed() else ""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_second_tab_shows_the_recording_under_way_and_cannot_start_another(server, browser, size):
    driver = browser
    window(driver, size)
    register(driver, server)
    first = driver.current_window_handle
    start_recording(driver)
    wait_until_recorded(driver, 1)

    # A second tab shows the recording under way, with its time running, instead of a record button
    driver.switch_to.new_window("tab")
    window(driver, size)
    driver.get(server.url + "/")
    shown = wait(driver, lambda d: re.fullmatch(r"Recording in another tab — (\d+:\d\d)", elsewhere_text(d)),
                 message="the second tab does not show the recording under way")
    assert not record_button(driver).is_displayed()
    wait(driver, lambda d: (m := re.fullmatch(r"Recording in another tab — (\d+:\d\d)", elsewhere_text(d)))
         and seconds_of(m.group(1)) > seconds_of(shown.group(1)), message="the other tab's time does not run")
    assert_accessible(driver)
    look(driver, f"home-elsewhere-{size}")
    started = driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        import('/app/recorder.js').then((m) => m.Recording.start()).then(() => done('started'), (e) => done(e.name));""")
    assert started == "InUseElsewhere"
    ActionChains(driver).send_keys(" ").perform()
    assert not record_button(driver).is_displayed()

    # Paused there, it says so here
    driver.switch_to.window(first)
    record_button(driver).click()
    wait(driver, lambda d: label(d) == PAUSED)
    driver.switch_to.window(driver.window_handles[1])
    wait(driver, lambda d: re.fullmatch(r"Recording paused in another tab — \d+:\d\d", elsewhere_text(d)),
         message="the second tab does not show the pause")

    # Once it is saved there, this tab can record
    second = driver.current_window_handle
    driver.switch_to.window(first)
    click(driver, ".home [data-action=stop]")
    wait(driver, lambda d: live(d) == "Saved")
    driver.switch_to.window(second)
    wait(driver, lambda d: record_button(d).is_displayed(), message="the second tab never offered to record again")
    assert elsewhere_text(driver) == ""
    start_recording(driver)
    wait_until_recorded(driver, 1)
    click(driver, ".home [data-action=stop]")
    wait(driver, lambda d: live(d) == "Saved")
    wait(driver, lambda d: outbox(d) == [] and len(server_entries(server, d)) == 2, message="not two entries")


def leave_mid_recording(driver, server, how):
    """Reloads the page, or crashes its renderer and opens the app again in a new tab, while it records."""
    if how == "crash":
        crashed = driver.current_window_handle
        driver.switch_to.new_window("tab")
        spare = driver.current_window_handle
        driver.switch_to.window(crashed)
        try:
            driver.execute_cdp_cmd("Page.crash", {})
        except WebDriverException:
            pass  # the page it was sent to is gone
        driver.switch_to.window(spare)
        driver.get(server.url + "/")
        return
    try:
        driver.refresh()
    except UnexpectedAlertPresentException:
        pass
    try:
        driver.switch_to.alert.accept()  # "Leave site?": what was recorded is kept either way
    except NoAlertPresentException:
        pass


@pytest.mark.parametrize("how", ["reload", "crash"])
def test_a_recording_kept_after_a_reload_or_a_crash_is_announced(server, browser, how):
    driver = browser
    register(driver, server)
    start_recording(driver)
    wait_until_recorded(driver, 3)
    recorded = seconds_of(clock(driver))
    leave_mid_recording(driver, server, how)

    pattern = r"A recording of (\d+:\d\d) from (.+) was saved"
    said = wait(driver, lambda d: re.fullmatch(pattern, live(d)), message="the kept recording was not announced")
    assert re.fullmatch(pattern, text_of(driver, ".home [data-slot=status]")), "the kept recording is not shown"
    # Its length is what was recorded (the last second may not have been written), its time when it began
    assert recorded - 2 <= seconds_of(said.group(1)) <= recorded + 1, (recorded, said.group(0))
    entries = wait(driver, lambda d: server_entries(server, d), message="the kept recording never reached the server")
    assert len(entries) == 1 and entries[0]["kind"] == "audio", entries
    began = driver.execute_script(
        "return new Intl.DateTimeFormat(undefined, { timeZone: arguments[1], timeStyle: 'short' }).format(new Date(arguments[0]))",
        entries[0]["created_at"], entries[0]["tz"])
    assert said.group(2) == began
    assert label(driver) == "Record"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_focus_goes_to_the_record_button_after_stopping_by_keyboard(server, browser, size):
    driver = browser
    window(driver, size)
    register(driver, server)

    def focused(d):
        return d.execute_script(
            "const e = document.activeElement; return [e.id || e.dataset.slot || e.dataset.action || e.tagName, e.matches(':focus-visible')]")

    # Started with Space on the record button, stopped with Enter on Stop
    record_button(driver).send_keys(" ")
    wait(driver, lambda d: label(d) == RECORDING)
    wait_until_recorded(driver, 1)
    ActionChains(driver).send_keys(Keys.TAB).perform()
    assert focused(driver)[0] == "stop"
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    wait(driver, lambda d: live(d) == "Saved")
    assert focused(driver) == ["record", True]

    # Paused with Space, saved with Enter on Save (each recording holds a second of sound, so each has a file to keep)
    ActionChains(driver).send_keys(" ").perform()
    wait(driver, lambda d: label(d) == RECORDING)
    wait_until_recorded(driver, 1)
    ActionChains(driver).send_keys(" ").perform()
    wait(driver, lambda d: label(d) == PAUSED)
    driver.find_element(By.CSS_SELECTOR, ".home [data-action=stop]").send_keys(Keys.ENTER)
    wait(driver, lambda d: live(d) == "Saved")
    assert focused(driver) == ["record", True]

    # Stopped by holding Escape
    ActionChains(driver).send_keys(" ").perform()
    wait(driver, lambda d: label(d) == RECORDING)
    wait_until_recorded(driver, 1)
    driver.execute_script("document.activeElement.blur()")
    ActionChains(driver).key_down(Keys.ESCAPE).perform()
    wait(driver, lambda d: live(d) == "Saved", message="holding Escape did not stop")
    ActionChains(driver).key_up(Keys.ESCAPE).perform()
    assert focused(driver) == ["record", True]

    # Stopped from the bar on another screen: focus goes to that screen, not lost with the bar
    ActionChains(driver).send_keys(" ").perform()
    wait(driver, lambda d: label(d) == RECORDING)
    wait_until_recorded(driver, 1)
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Library]").send_keys(Keys.ENTER)
    wait(driver, lambda d: d.find_element(By.ID, "recording-bar").is_displayed())
    driver.find_element(By.CSS_SELECTOR, "#recording-bar [data-action=stop]").send_keys(Keys.ENTER)
    wait(driver, lambda d: live(d) == "Saved")
    assert focused(driver)[0] == "view"
    wait(driver, lambda d: outbox(d) == [], message="the recordings were never uploaded")
    assert len(server_entries(server, driver)) == 4


SCREENS = {
    # 1280 × 720 at 200 % zoom is a 640 × 360 page; a phone with the browser's largest text
    "zoom-200": ((640, 360, 2), None),
    "large-font": ((390, 844, 1), 32),
    "zoom-200-large-font": ((640, 360, 2), 24),
}


def on_screen(driver, selector):
    """The element lies inside the viewport and nothing covers its middle."""
    return driver.execute_script("""
        const e = document.querySelector(arguments[0]);
        const r = e.getBoundingClientRect();
        const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
        return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && e.contains(hit);""",
                                 selector)


def assert_on_screen_as_scrolled(driver, selector):
    for where in ("top", "bottom"):
        driver.execute_script("scrollTo(0, arguments[0] === 'top' ? 0 : document.documentElement.scrollHeight)", where)
        assert on_screen(driver, selector), f"{selector} is off screen at the {where}"
    assert driver.execute_script("return document.documentElement.scrollHeight > innerHeight"), "the page does not scroll"
    driver.execute_script("scrollTo(0, 0)")


@pytest.mark.parametrize("screen", list(SCREENS))
def test_stop_is_always_on_screen_zoomed_or_with_a_large_font(server, browser, screen):
    driver = browser
    (width, height, scale), font = SCREENS[screen]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": False})
    if font:
        driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": font, "fixed": font}})
    register(driver, server)
    # Given a day with a few entries, so Home scrolls
    in_page(driver, """
        const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
        // A minute apart, or closer just after midnight, so that all six are today's
        const now = Date.now(), midnight = new Date(now).setHours(0, 0, 0, 0);
        const apart = Math.min(60000, (now - midnight) / 7);
        for (let n = 1; n <= 6; n++) {
          await api.call('POST', '/v1/entries', { id: crypto.randomUUID(), created_at: new Date(now - n * apart).toISOString(),
                                                  tz: zone, duration_s: 0, kind: 'text', text: `Note ${n} of a long day by the sea.` });
        }
        await sync.sync();
        return true;""")
    driver.refresh()
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".home [data-slot=today-list] li")) == 6, message="Today is not listed")

    start_recording(driver)
    assert_on_screen_as_scrolled(driver, ".home [data-action=stop]")
    record_button(driver).click()
    wait(driver, lambda d: label(d) == PAUSED)
    for action in ("resume", "stop", "discard"):
        assert_on_screen_as_scrolled(driver, f".home [data-action={action}]")
    assert_accessible(driver)
    look(driver, f"home-paused-{screen}")
    click(driver, ".home [data-action=resume]")
    wait(driver, lambda d: label(d) == RECORDING)

    # On another screen, the bar's Stop
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Library]").click()
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".entry")) >= 6, message="the Library did not list the day")
    assert_on_screen_as_scrolled(driver, "#recording-bar [data-action=stop]")
    assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth"), "the page scrolls sideways"
    assert_accessible(driver)
    look(driver, f"library-recording-{screen}")
    click(driver, "#recording-bar [data-action=stop]")
    wait(driver, lambda d: live(d) == "Saved")


# Notes each AudioContext the page makes, so a test can suspend it as a phone call would.
WATCH_AUDIO_CONTEXTS = """
window.__contexts = [];
const Original = window.AudioContext;
window.AudioContext = class extends Original {
  constructor(...options) {
    super(...options);
    window.__contexts.push(this);
  }
};
"""


def test_a_recording_the_browser_suspends_is_saved_with_what_was_said(server, browser):
    driver = browser
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH_AUDIO_CONTEXTS})
    register(driver, server)
    start_recording(driver)
    wait_until_recorded(driver, 2)
    # When the browser suspends the audio (a call, another app taking the sound), nothing more reaches the file
    driver.execute_script("window.__contexts.at(-1).suspend()")
    # Then the recording ends by itself and is kept, as when the microphone goes away
    wait(driver, lambda d: label(d) != RECORDING and "Saved" in d.find_element(By.CSS_SELECTOR, ".home").text,
         message="a suspended recording went on as if it recorded")
    entries = wait(driver, lambda d: server_entries(server, d) or None, message="the recording was not kept")
    assert len(entries) == 1 and entries[0]["kind"] == "audio" and entries[0]["duration_s"] >= 1, entries
