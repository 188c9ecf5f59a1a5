"""My Day in headless Chromium with a fake microphone: record, waveform, pause, long-press stop, the
entry's way to a transcript, playback, typing, export; offline recording; a reload mid-upload.

Every wait is on a condition with a deadline (harness.DEADLINE), never a fixed sleep, and nothing here
asserts on wall-clock time or a rate: the waveform's frame rate is measured by `bench/web`."""
import io
import json
import os
import re
import shutil
import socket
import tempfile
import urllib.error
import urllib.request
import zipfile

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions

from harness import (DEADLINE, PASSWORD, SCREENSHOTS, SPOKEN, Server, label, poll, record_button, register, start_recording,
                     wait, wait_until_recorded)


def screenshot(driver, name):
    driver.save_screenshot(os.path.join(SCREENSHOTS, f"{name}.png"))


def live(driver):
    return driver.find_element(By.ID, "live").text


def assert_accessible(driver):
    """Every visible control has a name and a hit target of at least 44 × 44 px."""
    problems = driver.execute_script("""
        return [...document.querySelectorAll('button, input, select, textarea, a[href]')]
          .filter((e) => e.offsetParent !== null)
          .flatMap((e) => {
            const r = e.getBoundingClientRect();
            const name = e.getAttribute('aria-label') || e.labels?.[0]?.textContent || e.textContent;
            const found = [];
            if (!name || !name.trim()) found.push(`${e.outerHTML.slice(0, 80)} has no name`);
            if (r.width < 44 || r.height < 44) found.push(`${e.outerHTML.slice(0, 80)} is ${r.width}×${r.height}`);
            return found;
          });""")
    assert problems == [], problems


def server_entries(server, driver):
    """The entries the server has, fetched with the page's own session."""
    return driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        import('/app/api.js').then((api) => api.call('GET', '/v1/entries?limit=500')).then((page) => done(page.entries), (e) => done(String(e)));""")


def waveform_image(driver):
    return driver.execute_script("return document.querySelector('[data-slot=waveform]').toDataURL()")


def frames_drawn(driver):
    """How many frames the home view has drawn (waveform and clock) since the recording began."""
    return int(driver.find_element(By.CSS_SELECTOR, ".home").get_attribute("data-frames"))


def hold_progress(driver):
    """How full the record button's ring is: 0 (not held) to 1 (held long enough to stop)."""
    return driver.execute_script(
        """const ring = document.querySelector('[data-slot=ring]');
        const full = parseFloat(ring.style.getPropertyValue('stroke-dasharray'));
        return 1 - parseFloat(ring.style.getPropertyValue('stroke-dashoffset')) / full;""")


def browser_now(driver):
    return driver.execute_script("return performance.now()")


def assert_clock_stands_still(driver, seconds=1.5):
    """The recorder's clock shows the same time after `seconds` of the page's own time, and after the view
    redrew it since. Only a stretch of time can show that something does not change: the wait is on the
    browser's clock and on a fresh frame, so a slow machine makes it longer, never wrong."""
    shown = driver.find_element(By.CSS_SELECTOR, "[data-slot=elapsed]").text
    began = browser_now(driver)
    wait(driver, lambda d: browser_now(d) - began >= seconds * 1000)
    drawn = frames_drawn(driver)
    wait(driver, lambda d: frames_drawn(d) > drawn, message="the view stopped drawing")
    assert driver.find_element(By.CSS_SELECTOR, "[data-slot=elapsed]").text == shown


def test_record_pause_stop_and_read(server, browser):
    driver = browser
    register(driver, server)
    screenshot(driver, "1-home")
    assert_accessible(driver)
    assert label(driver) == "Record"

    # Tap: recording, announced, with a live waveform whose drawn levels keep changing
    start_recording(driver)
    wait(driver, lambda d: live(d) == "Recording", message="the recording was not announced")
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=hint]").is_displayed())
    for _ in range(2):
        before = waveform_image(driver)
        wait(driver, lambda d: waveform_image(d) != before, message="the waveform did not move")
    # Long enough for the waveform to fill with speech in the screenshot
    wait_until_recorded(driver, 3)
    screenshot(driver, "2-recording")
    assert_accessible(driver)

    # Tap: paused, and the clock stops; tap again: recording
    record_button(driver).click()
    wait(driver, lambda d: label(d) == "Recording paused — tap to resume")
    wait(driver, lambda d: live(d) == "Paused", message="the pause was not announced")
    assert_clock_stands_still(driver)
    record_button(driver).click()
    wait(driver, lambda d: label(d) == "Recording — tap to pause")
    # Enough speech for the transcript (the fake microphone says the sentence again and again)
    wait_until_recorded(driver, 9)

    # A hold let go before it completes changes nothing (the ring fills, then empties); a completed hold stops and saves
    ActionChains(driver).click_and_hold(record_button(driver)).perform()
    wait(driver, lambda d: hold_progress(d) >= 0.15, message="the ring did not fill while held", every=0.02)  # past a tap
    ActionChains(driver).release().perform()
    wait(driver, lambda d: hold_progress(d) < 0.01, message="the ring did not empty when let go")
    assert label(driver) == "Recording — tap to pause"
    ActionChains(driver).click_and_hold(record_button(driver)).perform()
    wait(driver, lambda d: live(d) == "Saved", message="holding did not stop and save")
    ActionChains(driver).release().perform()
    assert label(driver) == "Record"

    # The Library shows it on its way, then transcribed with words that were spoken
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Library]").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".entry"))
    seen = set()

    def transcribed(d):
        d.find_element(By.CSS_SELECTOR, "[data-action=refresh]").click()
        pills, statuses = d.execute_script(
            "return [[...document.querySelectorAll('.pill')].map((p) => p.textContent),"
            " [...document.querySelectorAll('.entry')].map((e) => e.dataset.status)]")
        seen.update(pills)
        return statuses == ["transcribed"]

    wait(driver, transcribed, timeout=5 * DEADLINE, message="never transcribed", every=1)
    screenshot(driver, "3-library")
    assert_accessible(driver)
    assert {"Uploading…", "Transcribing…"} & seen, seen
    entries = server_entries(server, driver)
    assert len(entries) == 1
    heard = set(entries[0]["transcript_raw"].split())
    assert len(heard & set(SPOKEN.split())) >= 4, entries[0]["transcript_raw"]

    # The entry: the clean transcript, and audio that plays
    driver.find_element(By.CSS_SELECTOR, ".entry").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".detail [data-slot=transcript]"))
    assert driver.find_element(By.CSS_SELECTOR, "[data-slot=transcript]").text.strip()
    audio = driver.find_element(By.CSS_SELECTOR, "[data-slot=audio]")
    def duration(d):
        value = d.execute_script("const a = arguments[0]; return Number.isFinite(a.duration) ? a.duration : 0", audio)
        return value if value > 0 else None

    seconds = wait(driver, duration, message="the audio never had a duration")
    driver.find_element(By.CSS_SELECTOR, "[data-action=original]").click()
    assert driver.find_element(By.CSS_SELECTOR, "[data-slot=transcript]").text.strip() == entries[0]["transcript_raw"].strip()
    driver.find_element(By.CSS_SELECTOR, "[data-action=original]").click()
    # The audio is the recording: the clock showed 9 s before the holds (which record too), pauses left out
    assert 8 < seconds < 60, seconds
    driver.execute_script("arguments[0].currentTime = 2", audio)
    wait(driver, lambda d: abs(d.execute_script("return arguments[0].currentTime", audio) - 2) < 0.5, message="seeking failed")
    screenshot(driver, "4-detail")
    assert_accessible(driver)


def test_type_instead_and_export(server, browser):
    driver = browser
    email = register(driver, server)
    driver.find_element(By.CSS_SELECTOR, "[data-action=type]").click()
    driver.find_element(By.NAME, "text").send_keys("Wrote this one instead of speaking.")
    driver.find_element(By.CSS_SELECTOR, "[data-form=typed] button[type=submit]").click()
    wait(driver, lambda d: len(server_entries(server, d)) == 1, message="the typed entry never reached the server")

    driver.find_element(By.CSS_SELECTOR, "[aria-label=Profile]").click()
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=count]").text == "1")
    screenshot(driver, "5-profile")
    assert_accessible(driver)
    driver.find_element(By.CSS_SELECTOR, "[data-form=export] button[type=submit]").click()
    link = wait(driver, lambda d: (lambda a: a.is_displayed() and a)(d.find_element(By.CSS_SELECTOR, "[data-slot=download]")),
                timeout=2 * DEADLINE, message="the export never became ready")
    href = link.get_attribute("href")
    assert href, link.get_attribute("outerHTML")
    with urllib.request.urlopen(href, timeout=DEADLINE) as response:
        archive = response.read()
    with zipfile.ZipFile(io.BytesIO(archive)) as opened:
        texts = [opened.read(name).decode() for name in opened.namelist() if name.endswith(".txt") and name != "README.txt"]
    assert any("Wrote this one instead of speaking." in text for text in texts), texts

    # Search finds it; a title, tags and mood can be set; deleting asks first
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Library]").click()
    search = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=search]"))
    search.send_keys("speaking")
    wait(driver, lambda d: d.execute_script("return document.querySelectorAll('.entry').length") == 1)
    search.clear()
    search.send_keys("nothingsaidlikethis")
    wait(driver, lambda d: d.execute_script("return document.querySelectorAll('.entry').length") == 0)
    search.clear()
    search.send_keys(" ")
    wait(driver, lambda d: d.execute_script("return document.querySelectorAll('.entry').length") == 1)
    driver.find_element(By.CSS_SELECTOR, ".entry").click()
    title = wait(driver, lambda d: d.find_element(By.NAME, "title"))
    title.send_keys("A quiet evening")
    driver.find_element(By.NAME, "tags").send_keys("home, reading")
    driver.find_element(By.CSS_SELECTOR, "select[name=mood] option[value='4']").click()
    driver.find_element(By.CSS_SELECTOR, "[data-form=edit] button[type=submit]").click()
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=title]").text == "A quiet evening")
    saved = server_entries(server, driver)[0]
    assert (saved["title"], saved["tags"], saved["mood"]) == ("A quiet evening", ["home", "reading"], 4)
    driver.find_element(By.CSS_SELECTOR, "[data-action=delete]").click()
    wait(driver, expected_conditions.alert_is_present(), message="deleting did not ask").dismiss()
    assert len(server_entries(server, driver)) == 1
    driver.find_element(By.CSS_SELECTOR, "[data-action=delete]").click()
    wait(driver, expected_conditions.alert_is_present(), message="deleting did not ask").accept()
    wait(driver, lambda d: d.current_url.endswith("#/library"))
    wait(driver, lambda d: server_entries(server, d) == [], message="not deleted on the server")

    # Deleting the account needs the typed word, then ends everything
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Profile]").click()
    form = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-form=delete]"))
    form.find_element(By.NAME, "confirm").send_keys("delete")
    form.find_element(By.NAME, "password").send_keys(PASSWORD)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(driver, lambda d: "Type DELETE" in d.find_element(By.CSS_SELECTOR, ".profile > [data-slot=error]").text)
    form.find_element(By.NAME, "confirm").clear()
    form.find_element(By.NAME, "confirm").send_keys("DELETE")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"), message="not signed out after deletion")
    request = urllib.request.Request(server.url + "/v1/auth/email/login", method="POST", headers={"Content-Type": "application/json"},
                                     data=json.dumps({"email": email, "password": PASSWORD}).encode())
    try:
        urllib.request.urlopen(request, timeout=DEADLINE)
        raise AssertionError("the deleted account can still sign in")
    except urllib.error.HTTPError as refused:
        assert refused.code == 401


def test_microphone_denied_still_lets_you_type(server, browser):
    driver = browser
    register(driver, server)
    driver.execute_script("navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('denied', 'NotAllowedError'))")
    record_button(driver).click()
    wait(driver, lambda d: "cannot use the microphone" in d.find_element(By.CSS_SELECTOR, "[data-slot=status]").text)
    assert label(driver) == "Record"


def outbox(driver):
    """Everything the browser still holds for the server, whoever it belongs to: [[id, state], …]."""
    return driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        import('/app/db.js').then((db) => db.all('outbox')).then((items) => done(items.map((i) => [i.id, i.state])), (e) => done(String(e)));""")


def network(driver, offline=False, upload_bytes_per_second=-1):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": upload_bytes_per_second})


def record_seconds(driver, seconds):
    """Records until the recorder's clock shows `seconds`, then stops with the Stop button."""
    start_recording(driver)
    wait_until_recorded(driver, seconds)
    driver.find_element(By.CSS_SELECTOR, "[data-action=stop]").click()
    wait(driver, lambda d: live(d) == "Saved", message="stopping did not save")


def test_offline_recording_waits_and_uploads_once_back_online(server, browser):
    driver = browser
    register(driver, server)
    wait(driver, lambda d: d.execute_script("return navigator.serviceWorker.controller !== null"), message="no service worker")
    # Given the server cannot be reached, the app still opens (from the service worker's shell) and records
    server.stop()
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot=record]"), message="the app did not open offline")
    record_seconds(driver, 2)
    # The recording waits in the browser, queued with its reason
    wait(driver, lambda d: [state for _, state in outbox(d)] == ["queued"], message="not queued")
    wait(driver, lambda d: "Waiting to upload" in d.find_element(By.CSS_SELECTOR, "[data-slot=pending]").text,
         message="the queued recording is not shown as waiting")
    # When the server is back, then it is uploaded, and exactly one entry exists
    server.start_again()
    driver.refresh()
    wait(driver, lambda d: outbox(d) == [], message="never uploaded")
    assert len(server_entries(server, driver)) == 1


def test_reload_mid_upload_leaves_exactly_one_entry(server, browser):
    driver = browser
    register(driver, server)
    # Given an upload slowed to 8 KB/s, reloaded while the audio is on its way: the server has the entry,
    # still waiting for its audio, and the browser still holds it as uploading
    network(driver, upload_bytes_per_second=8_000)
    record_seconds(driver, 8)
    wait(driver, lambda d: [state for _, state in outbox(d)] == ["uploading"], message="the upload never started")
    wait(driver, lambda d: [entry["status"] for entry in server_entries(server, d)] == ["pending_upload"],
         message="the entry never reached the server ahead of its audio")
    assert [state for _, state in outbox(driver)] == ["uploading"], "the upload finished before the reload"
    network(driver)
    driver.refresh()
    # Then the queue resumes after the reload and the server has exactly one entry
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot=record]"))
    wait(driver, lambda d: outbox(d) == [], message="never uploaded after the reload")
    entries = server_entries(server, driver)
    assert len(entries) == 1, entries
    assert entries[0]["status"] != "pending_upload"


def test_keyboard_space_pauses_and_holding_escape_stops(server, browser):
    driver = browser
    register(driver, server)
    start_recording(driver)
    # Space on the focused button pauses and resumes
    record_button(driver).send_keys(" ")
    wait(driver, lambda d: label(d) == "Recording paused — tap to resume")
    record_button(driver).send_keys(" ")
    wait(driver, lambda d: label(d) == "Recording — tap to pause")
    # Space with nothing focused does the same
    driver.execute_script("document.activeElement.blur()")
    ActionChains(driver).send_keys(" ").perform()
    wait(driver, lambda d: label(d) == "Recording paused — tap to resume", message="Space on the page did not pause")
    ActionChains(driver).send_keys(" ").perform()
    wait(driver, lambda d: label(d) == "Recording — tap to pause")
    # Holding Escape until the ring is full stops and saves
    ActionChains(driver).key_down(Keys.ESCAPE).perform()
    wait(driver, lambda d: live(d) == "Saved", message="holding Escape did not stop")
    ActionChains(driver).key_up(Keys.ESCAPE).perform()

    # Signing out (once the recording is up) ends the session: a reload shows the sign-in screen
    wait(driver, lambda d: outbox(d) == [], message="the recording was never uploaded")
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Profile]").click()
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-action=signout]")).click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"), message="not signed out")
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"), message="the session survived the sign-out")


def test_dark_mode_and_reduced_motion(server, browser):
    driver = browser
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-color-scheme", "value": "dark"}, {"name": "prefers-reduced-motion", "value": "reduce"}]})
    register(driver, server)
    background = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(23, 22, 20)", background
    transition = driver.execute_script("return getComputedStyle(document.querySelector('.record')).transitionDuration")
    assert transition in ("0s", "0s, 0s"), transition
    screenshot(driver, "6-home-dark")


def test_provider_buttons_appear_only_when_configured(server, browser):
    driver = browser
    driver.get(server.url + "/")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"))
    assert not driver.find_element(By.CSS_SELECTOR, "[data-action=apple]").is_displayed()
    assert not driver.find_element(By.CSS_SELECTOR, "[data-action=google]").is_displayed()
    data = tempfile.mkdtemp(prefix="myday-web-")
    with_providers = Server(data, MYDAY_APPLE_CLIENT_IDS="com.example.myday.web",
                            MYDAY_GOOGLE_CLIENT_IDS="1234.apps.googleusercontent.com")
    try:
        driver.get(with_providers.url + "/")
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-action=apple]").is_displayed())
        assert driver.find_element(By.CSS_SELECTOR, "[data-action=google]").is_displayed()
        assert_accessible(driver)
    finally:
        with_providers.stop()
        shutil.rmtree(data, ignore_errors=True)


def mails(server, subject):
    """The mails the server wrote to its outbox (it mails nothing else here) whose subject has `subject`."""
    folder = os.path.join(server.data, "outbox")
    names = sorted(name for name in os.listdir(folder) if name.endswith(".eml")) if os.path.isdir(folder) else []
    texts = [open(os.path.join(folder, name), encoding="utf-8").read() for name in names]
    return [text for text in texts if subject in text]


def mailed_link(server, subject, page):
    mail = poll(lambda: (mails(server, subject) or [None])[-1], message=f"no mail '{subject}'")
    return re.search(rf"http://\S+/#/{page}/[A-Za-z0-9_-]+", mail).group(0)


def test_confirm_the_address_export_delete_and_forgot_password(browser):
    driver = browser
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data = tempfile.mkdtemp(prefix="myday-web-")
    server = Server(data, port=str(port), MYDAY_PUBLIC_URL=f"http://127.0.0.1:{port}")
    try:
        # A new account is asked to confirm its address, and the mailed link does it
        email = register(driver, server)
        driver.find_element(By.CSS_SELECTOR, "[aria-label=Profile]").click()
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=unverified]").is_displayed())
        assert driver.find_element(By.CSS_SELECTOR, "[data-action=resend]").is_displayed()
        driver.get(mailed_link(server, "Confirm your email address", "verify"))
        wait(driver, lambda d: "is confirmed" in d.find_element(By.CSS_SELECTOR, "[data-slot=status]").text)
        assert_accessible(driver)
        driver.find_element(By.CSS_SELECTOR, "[data-action=continue]").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=export]"), message="not back in the Profile")
        wait(driver, lambda d: not d.find_element(By.CSS_SELECTOR, "[data-slot=unverified]").is_displayed())

        # An export is mailed to the confirmed address, and can be deleted at once
        driver.find_element(By.CSS_SELECTOR, "[data-form=export] button[type=submit]").click()
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=download]").is_displayed(),
             timeout=2 * DEADLINE, message="the export never became ready")
        assert f"mailed to {email}" in driver.find_element(By.CSS_SELECTOR, "[data-slot=export-status]").text
        href = driver.find_element(By.CSS_SELECTOR, "[data-slot=download]").get_attribute("href")
        driver.find_element(By.CSS_SELECTOR, "[data-action=delete-export]").click()
        wait(driver, lambda d: "Export deleted" in d.find_element(By.CSS_SELECTOR, "[data-slot=export-status]").text)
        try:
            urllib.request.urlopen(href, timeout=DEADLINE)
            raise AssertionError("a deleted export still downloads")
        except urllib.error.HTTPError as refused:
            assert refused.code in (403, 404)

        # Signed out, "Forgot password?" mails a link that sets a new one and signs in
        driver.find_element(By.CSS_SELECTOR, "[data-action=signout]").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"))
        driver.find_element(By.CSS_SELECTOR, "[data-action=forgot]").click()
        form = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-form=forgot]"))
        form.find_element(By.NAME, "email").send_keys(email)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(driver, lambda d: "Check your mail" in d.find_element(By.CSS_SELECTOR, "[data-slot=sent]").text)
        assert_accessible(driver)
        driver.get(mailed_link(server, "Set a new password", "reset"))
        new_password = "a brand new passphrase"
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-form=reset]")).find_element(
            By.NAME, "password").send_keys(new_password)
        assert_accessible(driver)
        driver.find_element(By.CSS_SELECTOR, "[data-form=reset] button[type=submit]").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot=record]"), message="not signed in after the reset")
        request = urllib.request.Request(server.url + "/v1/auth/email/login", method="POST",
                                         headers={"Content-Type": "application/json"},
                                         data=json.dumps({"email": email, "password": new_password}).encode())
        with urllib.request.urlopen(request, timeout=DEADLINE) as answer:
            assert answer.status == 200
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)
