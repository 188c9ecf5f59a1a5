"""My Day in headless Chromium with a fake microphone: record, waveform, pause, long-press stop, the
entry's way to a transcript, playback, typing, export; the recording bar on every screen; offline
recording, search and sign-out; a reload mid-upload; live updates between two browsers; axe-core's
accessibility rules and a screenshot of every screen, light and dark, at phone size.

Every wait is on a condition with a deadline (harness.DEADLINE), never a fixed sleep, and nothing here
asserts on wall-clock time or a rate: the waveform's frame rate is measured by `bench/web`."""
import contextlib
import io
import json
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import urllib.error
import urllib.request
import uuid
import zipfile

import pytest
from selenium_axe_python import Axe
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions

from harness import (DEADLINE, PASSWORD, SCREENSHOTS, SPOKEN, Server, label, poll, quit_chromium,
                     record_button, register, sign_in, start_chromium, start_recording, type_entry, wait,
                     wait_until_recorded)


def screenshot(driver, name):
    driver.save_screenshot(os.path.join(SCREENSHOTS, f"{name}.png"))


def look(driver, name):
    """The screen as a person sees it, light and dark: axe-core finds no accessibility violation in
    either (every rule it has, none left out), and a phone-size screenshot of each is kept."""
    axe = Axe(driver)
    try:
        for scheme in ("light", "dark"):
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            if not driver.execute_script("return typeof window.axe === 'object'"):
                axe.inject()
            assert driver.execute_script("return axe.version").startswith("4."), "axe-core is not a 4.x release"
            # axe-core scrolls to the elements it checks: the screenshot is of the screen as it was
            scrolled = driver.execute_script("return [scrollX, scrollY]")
            violations = axe.run()["violations"]
            assert violations == [], f"{name}, {scheme}: " + axe.report(violations)
            driver.execute_script("scrollTo(...arguments[0])", scrolled)
            screenshot(driver, f"{name}-{scheme}")
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def text_of(driver, selector):
    return driver.find_element(By.CSS_SELECTOR, selector).text


def clock(driver):
    return text_of(driver, "[data-slot=elapsed]")


def shown_duration(seconds):
    """A length as the browser's own audio player shows it: whole seconds, cut (m:ss, h:mm:ss)."""
    whole = int(seconds)
    hours, minutes, rest = whole // 3600, whole // 60 % 60, whole % 60
    return f"{hours}:{minutes:02}:{rest:02}" if hours else f"{minutes}:{rest:02}"


def seconds_of(shown):
    value = 0
    for part in shown.split(":"):
        value = value * 60 + int(part)
    return value


def click(driver, selector):
    """Clicks `selector` once it is there, also while a list redraws under it."""
    def clicked(d):
        try:
            d.find_element(By.CSS_SELECTOR, selector).click()
            return True
        except (NoSuchElementException, StaleElementReferenceException):
            return False

    wait(driver, clicked, message=f"could not click {selector}")


def page_text(driver):
    return driver.execute_script("return document.body.innerText")


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


@pytest.mark.whisper
def test_record_pause_stop_and_read(server, browser):
    driver = browser
    register(driver, server)
    look(driver, "home")
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
    look(driver, "recording")
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

    # A hold let go before it completes changes nothing (the ring fills, then empties, and the recording goes on)
    ActionChains(driver).click_and_hold(record_button(driver)).perform()
    wait(driver, lambda d: hold_progress(d) >= 0.15, message="the ring did not fill while held", every=0.02)  # past a tap
    ActionChains(driver).release().perform()
    wait(driver, lambda d: hold_progress(d) < 0.01, message="the ring did not empty when let go")
    assert label(driver) == "Recording — tap to pause"
    resumed_at = seconds_of(clock(driver))
    wait(driver, lambda d: seconds_of(clock(d)) > resumed_at, message="the recording did not go on after the hold was let go")

    # A completed hold stops and saves; the hold itself is not recorded: the clock stands still from the press on
    shown_while_held = []

    def saved_while_watching_the_clock(d):
        progress, shown, spoken = d.execute_script(
            """const ring = document.querySelector('[data-slot=ring]');
            const full = parseFloat(ring.style.getPropertyValue('stroke-dasharray'));
            return [1 - parseFloat(ring.style.getPropertyValue('stroke-dashoffset')) / full,
                    document.querySelector('[data-slot=elapsed]').textContent, document.getElementById('live').textContent]""")
        if progress > 0.01:
            shown_while_held.append((progress, shown))
        return spoken == "Saved"

    ActionChains(driver).click_and_hold(record_button(driver)).perform()
    wait(driver, saved_while_watching_the_clock, every=0.02, message="holding did not stop and save")
    ActionChains(driver).release().perform()
    assert shown_while_held, "the ring never filled"
    shown = sorted({shown for _, shown in shown_while_held})
    assert len(shown) == 1, f"the clock ran on while the button was held to stop: {shown}"
    assert label(driver) == "Record"
    # The ring is empty again, ready for the next recording
    wait(driver, lambda d: hold_progress(d) < 0.01, message="the ring stayed full after the recording stopped")
    recorded = seconds_of(shown_while_held[0][1])  # the recording's length is within [recorded, recorded + 1) s

    # The Library shows it on its way, then transcribed with words that were spoken. Keyboard
    # navigation lands on the new screen without drawing a focus ring around all of it.
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Library]").send_keys(Keys.ENTER)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".entry"))
    assert driver.execute_script("return document.activeElement === document.getElementById('view')")
    assert driver.execute_script("return getComputedStyle(document.getElementById('view')).outlineStyle") == "none"
    ActionChains(driver).send_keys(Keys.TAB).perform()
    assert driver.execute_script(
        "const e = document.activeElement; return e.tagName === 'BUTTON' && getComputedStyle(e).outlineStyle") == "solid"
    seen = set()

    def transcribed(d):
        d.find_element(By.CSS_SELECTOR, "[data-action=refresh]").click()
        pills, statuses = d.execute_script(
            "return [[...document.querySelectorAll('.pill')].map((p) => p.textContent),"
            " [...document.querySelectorAll('.entry')].map((e) => e.dataset.status)]")
        seen.update(pills)
        return statuses == ["transcribed"]

    wait(driver, transcribed, timeout=5 * DEADLINE, message="never transcribed", every=1)
    look(driver, "library")
    assert_accessible(driver)
    assert {"Uploading…", "Transcribing…"} & seen, seen
    entries = server_entries(server, driver)
    assert len(entries) == 1
    heard = set(entries[0]["transcript_raw"].split())
    assert len(heard & set(SPOKEN.split())) >= 4, entries[0]["transcript_raw"]
    # The length kept is the recording's, without the holds
    assert recorded - 0.75 < entries[0]["duration_s"] < recorded + 1.75, (recorded, entries[0]["duration_s"])
    listed = text_of(driver, ".entry .length")

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
    # The audio is the recording: pauses and holds left out
    assert recorded - 0.75 < seconds < recorded + 1.75, (recorded, seconds)
    # The list, the entry page and the player say the same length (the server's length is the audio's own,
    # which the player may read a few milliseconds apart)
    assert listed == text_of(driver, "[data-slot=meta]").rsplit(" · ", 1)[1], listed
    assert listed in {shown_duration(seconds - 0.05), shown_duration(seconds + 0.05)}, (listed, seconds)
    driver.execute_script("arguments[0].currentTime = 2", audio)
    wait(driver, lambda d: abs(d.execute_script("return arguments[0].currentTime", audio) - 2) < 0.5, message="seeking failed")
    look(driver, "entry")
    assert_accessible(driver)


def in_view(driver, selector):
    """The element is on screen, top to bottom, without scrolling the page."""
    return driver.execute_script(
        """const r = document.querySelector(arguments[0]).getBoundingClientRect();
        return scrollY === 0 && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight""", selector)


def test_type_instead_export_and_form_feedback(server, browser):
    driver = browser
    email = register(driver, server)
    # "Type instead" and the typed form's Save are on a phone's screen without scrolling
    assert in_view(driver, "[data-action=type]")
    driver.find_element(By.CSS_SELECTOR, "[data-action=type]").click()
    assert in_view(driver, "[data-form=typed] button[type=submit]")
    look(driver, "home-typing")
    # An empty entry is refused, and the page says why
    driver.find_element(By.NAME, "text").send_keys("   ")
    driver.find_element(By.CSS_SELECTOR, "[data-form=typed] button[type=submit]").click()
    wait(driver, lambda d: "empty entry is not saved" in text_of(d, "[data-slot=typed-error]"))
    assert outbox(driver) == []
    driver.find_element(By.NAME, "text").send_keys("Wrote this one instead of speaking.")
    assert text_of(driver, "[data-slot=typed-error]") == ""
    driver.find_element(By.CSS_SELECTOR, "[data-form=typed] button[type=submit]").click()
    wait(driver, lambda d: len(server_entries(server, d)) == 1, message="the typed entry never reached the server")
    # (and one from more than a year ago, outside the export's usual last 30 days: made at 00:30 on the 1st of a month
    # in Kiritimati, which is still the month before in this browser's zone)
    in_page(driver, """
        const old = new Date(Date.now() - 400 * 86400000);
        const made = new Date(Date.UTC(old.getUTCFullYear(), old.getUTCMonth() + 1, 0, 10, 30));
        await api.call('POST', '/v1/entries', { id: crypto.randomUUID(), created_at: made.toISOString(),
                                                tz: 'Pacific/Kiritimati', duration_s: 0, kind: 'text', text: 'An old page from last year.' });
        return true;""")

    driver.find_element(By.CSS_SELECTOR, "[aria-label=Profile]").click()
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=count]").text == "2")
    look(driver, "profile")
    assert_accessible(driver)
    # Days in the wrong order are refused at the days, asking nothing of the server
    export = driver.find_element(By.CSS_SELECTOR, "[data-form=export]")
    days = [export.find_element(By.NAME, name).get_attribute("value") for name in ("from", "to")]
    set_date = "arguments[0].value = arguments[1]"
    driver.execute_script(set_date, export.find_element(By.NAME, "from"), days[1])
    driver.execute_script(set_date, export.find_element(By.NAME, "to"), "2001-01-01")
    export.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(driver, lambda d: "comes after" in text_of(d, "[data-slot=export-days-error]"), message="no error at the days")
    assert export.find_element(By.NAME, "from").get_attribute("aria-invalid") == "true"
    driver.execute_script(set_date, export.find_element(By.NAME, "from"), days[0])
    driver.execute_script(set_date, export.find_element(By.NAME, "to"), days[1])
    driver.find_element(By.CSS_SELECTOR, "[data-form=export] button[type=submit]").click()
    link = wait(driver, lambda d: (lambda a: a.is_displayed() and a)(d.find_element(By.CSS_SELECTOR, "[data-slot=download]")),
                timeout=2 * DEADLINE, message="the export never became ready")
    assert "Ready: 1 entry." in text_of(driver, "[data-slot=export-status]")
    href = link.get_attribute("href")
    assert href, link.get_attribute("outerHTML")
    with urllib.request.urlopen(href, timeout=DEADLINE) as response:
        archive = response.read()
    with zipfile.ZipFile(io.BytesIO(archive)) as opened:
        texts = [opened.read(name).decode() for name in opened.namelist() if name.endswith(".txt") and name != "README.txt"]
        names = opened.namelist()
    assert any("Wrote this one instead of speaking." in text for text in texts), texts
    # Every format, the markdown pages and entries.json too
    assert "entries.json" in names and any(name.endswith(".md") for name in names), names
    assert not any("An old page" in text for text in texts), texts
    # "Everything" exports the whole diary, the old page too
    driver.find_element(By.CSS_SELECTOR, "[data-action=export-all]").click()
    assert not driver.find_element(By.CSS_SELECTOR, "[data-form=export] [name=from]").is_displayed()
    driver.find_element(By.CSS_SELECTOR, "[data-form=export] button[type=submit]").click()
    wait(driver, lambda d: "Ready: 2 entries." in text_of(d, "[data-slot=export-status]"), timeout=2 * DEADLINE,
         message="exporting everything did not hold both entries")
    with urllib.request.urlopen(driver.find_element(By.CSS_SELECTOR, "[data-slot=download]").get_attribute("href"),
                                timeout=DEADLINE) as response:
        with zipfile.ZipFile(io.BytesIO(response.read())) as opened:
            assert any("An old page from last year." in opened.read(name).decode(errors="replace")
                       for name in opened.namelist() if name.endswith(".txt")), opened.namelist()
    # (the old page goes again, for what follows)
    in_page(driver, """
        const page = await api.call('GET', '/v1/entries?limit=10');
        const old = page.entries.find((entry) => entry.transcript_clean === 'An old page from last year.');
        await api.call('DELETE', `/v1/entries/${old.id}`);
        return true;""")

    # Search finds it, and says so when nothing matches; a title, tags and mood can be set; deleting asks first
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Library]").click()
    search = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=search]"))
    search.send_keys("speaking")
    wait(driver, lambda d: d.execute_script("return document.querySelectorAll('.entry').length") == 1)
    assert not driver.find_element(By.CSS_SELECTOR, "[data-slot=no-matches]").is_displayed()
    search.clear()
    search.send_keys("nothingsaidlikethis")
    wait(driver, lambda d: d.execute_script("return document.querySelectorAll('.entry').length") == 0)
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=no-matches]").is_displayed(), message="no 'No matches'")
    search.clear()
    search.send_keys(" ")
    wait(driver, lambda d: d.execute_script("return document.querySelectorAll('.entry').length") == 1)
    driver.find_element(By.CSS_SELECTOR, ".entry").click()
    title = wait(driver, lambda d: d.find_element(By.NAME, "title"))
    # A title too long is refused at the field, not cut, and nothing is sent
    title.send_keys("a" * 201)
    driver.find_element(By.CSS_SELECTOR, "[data-form=edit] button[type=submit]").click()
    wait(driver, lambda d: "at most 200 characters" in text_of(d, "[data-slot=title-error]"))
    assert title.get_attribute("aria-invalid") == "true"
    assert len(title.get_attribute("value")) == 201
    assert server_entries(server, driver)[0].get("title") in (None, "")
    title.clear()
    title.send_keys("A quiet evening")
    driver.find_element(By.NAME, "tags").send_keys("home, reading")
    driver.find_element(By.CSS_SELECTOR, "select[name=mood] option[value='4']").click()
    driver.find_element(By.CSS_SELECTOR, "[data-form=edit] button[type=submit]").click()
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=title]").text == "A quiet evening")
    # Saving says so, on the page and to a screen reader
    wait(driver, lambda d: text_of(d, "[data-slot=saved]") == "Saved")
    wait(driver, lambda d: live(d) == "Changes saved")
    assert text_of(driver, "[data-slot=title-error]") == ""
    saved = server_entries(server, driver)[0]
    assert (saved["title"], saved["tags"], saved["mood"]) == ("A quiet evening", ["home", "reading"], 4)
    # Tags and mood show on the entry and in the Library
    chips = lambda d, where: d.execute_script(
        "return [...document.querySelectorAll(arguments[0] + ' .chip')].map((chip) => chip.textContent)", where)
    assert chips(driver, "[data-slot=chips]") == ["home", "reading", "Mood 4/5"]
    # (back at the top of the page, where a person finds the way back)
    driver.execute_script("scrollTo(0, 0)")
    driver.find_element(By.CSS_SELECTOR, "[data-action=back]").click()
    wait(driver, lambda d: chips(d, ".entry") == ["home", "reading", "Mood 4/5"], message="the Library shows no tags and mood")
    look(driver, "library-tags")
    click(driver, ".entry")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-action=delete]"))
    driver.find_element(By.CSS_SELECTOR, "[data-action=delete]").click()
    wait(driver, lambda d: d.current_url.endswith("#/library"))
    wait(driver, lambda d: server_entries(server, d) == [], message="not deleted on the server")

    # Deleting the account needs the typed word, then ends everything
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Profile]").click()
    form = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-form=delete]"))
    form.find_element(By.NAME, "confirm").send_keys("delete")
    form.find_element(By.NAME, "password").send_keys(PASSWORD)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(driver, lambda d: "Type DELETE" in text_of(d, "[data-slot=delete-confirm-error]"), message="no error at the field")
    assert form.find_element(By.NAME, "confirm").get_attribute("aria-invalid") == "true"
    assert driver.execute_script("return document.activeElement.name") == "confirm"
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

    # A failed sign-in says why; switching to "Create account" clears it
    form = driver.find_element(By.CSS_SELECTOR, "[data-form=signin]")
    form.find_element(By.NAME, "email").send_keys(email)
    form.find_element(By.NAME, "password").send_keys("not the password at all")
    error = driver.find_element(By.CSS_SELECTOR, "[data-form=signin] [data-slot=error]")

    def refused_with(d):
        d.find_element(By.CSS_SELECTOR, "[data-slot=submit]").click()
        return wait(d, lambda _: error.text)

    refused_with(driver)
    driver.find_element(By.CSS_SELECTOR, "[data-action=switch]").click()
    assert error.text == ""
    # A password the server refuses for a new account is refused at the password field
    form.find_element(By.NAME, "password").clear()
    form.find_element(By.NAME, "password").send_keys("password123")
    driver.find_element(By.CSS_SELECTOR, "[data-slot=submit]").click()
    wait(driver, lambda d: "common" in text_of(d, "[data-slot=password-error]"), message="no error at the password")
    assert form.find_element(By.NAME, "password").get_attribute("aria-invalid") == "true" and error.text == ""
    form.find_element(By.NAME, "password").clear()
    form.find_element(By.NAME, "password").send_keys("not the password at all")
    driver.find_element(By.CSS_SELECTOR, "[data-action=switch]").click()
    assert text_of(driver, "[data-slot=password-error]") == ""
    # Too many tries: the server's limit, in words, with the time to wait
    poll(lambda: "Too many attempts — try again in" in refused_with(driver), timeout=DEADLINE,
         message="the sign-in limit never showed", every=0)
    assert re.search(r"try again in \d+ seconds?\.", error.text), error.text


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
    driver.find_element(By.CSS_SELECTOR, ".home [data-action=stop]").click()
    wait(driver, lambda d: live(d) == "Saved", message="stopping did not save")


def in_page(driver, script):
    """Runs `script` (the body of an async function with the app's modules `api`, `db` and `sync`) and answers its value."""
    return driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        Promise.all([import('/app/api.js'), import('/app/db.js'), import('/app/sync.js')])
          .then(([api, db, sync]) => (async () => { %s })())
          .then(done, (e) => done('failed: ' + e));""" % script)


def test_the_diary_kept_in_the_browser_goes_when_the_session_ends_elsewhere(server, browser):
    driver = browser
    register(driver, server)
    # Given an entry synced into this browser
    type_entry(driver, "A private thought about the harbour.")
    wait(driver, lambda d: in_page(d, "await sync.sync(); return (await db.all('entries')).length") == 1,
         message="the entry never reached this browser's copy")
    # When every session of the account ends from elsewhere (signed out everywhere), and the page opens again
    assert in_page(driver, "await api.call('POST', '/v1/auth/logout-all'); return 'ended'") == "ended"
    driver.get(server.url + "/")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"), message="still signed in")
    # Then nothing of the diary is left in the browser
    assert in_page(driver, "return (await db.all('entries')).length") == 0


def test_words_being_typed_come_back_after_the_session_ended_elsewhere_and_only_to_their_account(server, browser):
    driver = browser
    email = register(driver, server)
    # Given words being typed on Home, not saved
    driver.find_element(By.CSS_SELECTOR, "[data-action=type]").click()
    driver.find_element(By.NAME, "text").send_keys("Half a thought about the sea")
    # When the session ends elsewhere and the page opens again: another account signs in here first, then the owner
    assert in_page(driver, "await api.call('POST', '/v1/auth/logout-all'); return 'ended'") == "ended"
    driver.get(server.url + "/")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"), message="still signed in")
    other = register(driver, server)
    assert not driver.find_element(By.CSS_SELECTOR, "[data-form=typed]").is_displayed()
    assert "Half a thought" not in page_text(driver)
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Profile]").click()
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-action=signout]")).click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"), message=f"{other} was not signed out")
    sign_in(driver, server, email)
    # Then the owner finds the words as they were, and saves them
    text = wait(driver, lambda d: (lambda t: t.is_displayed() and t)(d.find_element(By.NAME, "text")),
                message="the words typed were not back")
    assert text.get_attribute("value") == "Half a thought about the sea"
    text.send_keys(".")
    driver.find_element(By.CSS_SELECTOR, "[data-form=typed] button[type=submit]").click()
    poll(lambda: [e["transcript_clean"] for e in server_entries(server, driver)] == ["Half a thought about the sea."],
         message="the words were not saved")
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot=record]"))
    assert not driver.find_element(By.CSS_SELECTOR, "[data-form=typed]").is_displayed()


def rows(driver):
    """The Library's rows: [[status, words, pill], …]."""
    return driver.execute_script(
        """return [...document.querySelectorAll('.entry')].map((e) =>
            [e.dataset.status, e.querySelector('.words').textContent, e.querySelector('.pill')?.textContent ?? null])""")


def test_offline_recording_waits_and_uploads_once_back_online(server, browser):
    driver = browser
    register(driver, server)
    # An entry on the server, tagged, and synced into this browser
    type_entry(driver, "Walked by the river after work.")
    wait(driver, lambda d: len(server_entries(server, d)) == 1, message="the typed entry never reached the server")
    entry_id = server_entries(server, driver)[0]["id"]
    assert in_page(driver, f"await api.call('PATCH', '/v1/entries/{entry_id}', {{ tags: ['outdoors'] }}); await sync.sync(); "
                           f"return (await db.get('entries', '{entry_id}')).tags") == ["outdoors"]
    wait(driver, lambda d: d.execute_script("return navigator.serviceWorker.controller !== null"), message="no service worker")
    # Given the server cannot be reached, the app still opens (from the service worker's shell) and records
    server.stop()
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot=record]"), message="the app did not open offline")
    record_seconds(driver, 2)
    type_entry(driver, "An offline note about the garden.")
    # What waits is shown as waiting, with one name, on Home and in the Library
    wait(driver, lambda d: sorted(state for _, state in outbox(d)) == ["queued", "queued"], message="not queued")
    wait(driver, lambda d: sorted(pill or "" for _, _, pill in rows(d)) == ["", "Waiting to upload", "Waiting to upload"],
         message="Home's Today does not show the queued entries as waiting")
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Library]").click()
    wait(driver, lambda d: sorted(pill or "" for _, _, pill in rows(d)) == ["", "Waiting to upload", "Waiting to upload"],
         message="the Library does not show both as waiting to upload")
    wait(driver, lambda d: "You are offline" in text_of(d, "[data-slot=notice]"), message="the Library does not say it is offline")
    # Search looks through what is on this device: typed text, transcripts, titles and tags
    search = driver.find_element(By.CSS_SELECTOR, "[data-slot=search]")
    for query, found in [("garden", ["An offline note about the garden."]), ("outdoors", ["Walked by the river after work."])]:
        search.clear()
        search.send_keys(query)
        wait(driver, lambda d: [words for _, words, _ in rows(d)] == found, message=f"searching '{query}' offline")
    search.clear()
    search.send_keys("nothingsaidlikethis")
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=no-matches]").is_displayed(), message="no 'No matches' offline")
    search.clear()
    search.send_keys(" ")
    wait(driver, lambda d: len(rows(d)) == 3)
    assert "Failed to fetch" not in page_text(driver)
    # A waiting recording opens here: it plays from this device and says what it waits for
    click(driver, ".entry:has(.length)")
    wait(driver, lambda d: "Waiting to upload" in text_of(d, ".detail [data-slot=status]"), message="the waiting entry did not open")
    audio = driver.find_element(By.CSS_SELECTOR, "[data-slot=audio]")
    assert audio.get_attribute("src").startswith("blob:")
    wait(driver, lambda d: d.execute_script("return Number.isFinite(arguments[0].duration) && arguments[0].duration > 0", audio),
         message="the waiting recording does not play")
    assert not driver.find_element(By.CSS_SELECTOR, "[data-form=edit]").is_displayed()
    look(driver, "entry-waiting")
    # The Profile says it is offline, in one line, instead of empty figures
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Profile]").click()
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=offline]").is_displayed(), message="the Profile does not say it is offline")
    assert not driver.find_element(By.CSS_SELECTOR, "[data-slot=stats]").is_displayed()
    assert text_of(driver, ".profile > [data-slot=error]") == ""
    assert "Failed to fetch" not in page_text(driver)
    look(driver, "profile-offline")
    # When the server is back, then they are uploaded, and exactly one entry each exists
    server.start_again()
    driver.refresh()
    wait(driver, lambda d: outbox(d) == [], message="never uploaded")
    assert len(server_entries(server, driver)) == 3


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_home_shows_today_newest_first_with_each_entrys_state(server, browser, size):
    driver = browser
    if size == "desktop":
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    register(driver, server)
    # Given an entry of yesterday, which is not today's
    in_page(driver, """
        const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
        await api.call('POST', '/v1/entries', { id: crypto.randomUUID(), created_at: new Date(Date.now() - 2 * 86400000).toISOString(),
                                                tz: zone, duration_s: 0, kind: 'text', text: 'Two days ago, a quiet one.' });
        return true;""")
    assert driver.find_element(By.CSS_SELECTOR, ".home [data-slot=today]").get_attribute("hidden") is not None
    # When a note is typed and then a recording made, Home lists both under Today, newest first
    type_entry(driver, "Lunch with Siobhan by the canal.")
    wait(driver, lambda d: [words for _, words, _ in rows(d)] == ["Lunch with Siobhan by the canal."],
         message="the typed note is not under Today")
    record_seconds(driver, 2)
    wait(driver, lambda d: len(rows(d)) == 2 and rows(d)[1][1] == "Lunch with Siobhan by the canal.",
         message="the recording is not first under Today")
    # The recording's row follows its state until it is readable (waiting is shown offline, in the test of that)
    wait(driver, lambda d: rows(d)[0][0] == "transcribed" and rows(d)[0][2] in (None, "Check the words"),
         message="the recording never became readable under Today")
    assert "Two days ago" not in text_of(driver, ".home [data-slot=today]")
    assert_accessible(driver)
    look(driver, f"home-today-{size}")
    # A row opens its entry
    click(driver, ".home [data-slot=today-list] li:last-child .entry")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".detail"), message="the row did not open its entry")
    assert "Lunch with Siobhan by the canal." in page_text(driver)
    # Its words are edited in place at this size too, saved as they are typed; a typed entry is never "automatic"
    assert not driver.find_element(By.CSS_SELECTOR, "[data-slot=words-origin]").is_displayed()
    click(driver, "[data-action=edit-words]")
    driver.find_element(By.CSS_SELECTOR, "[data-form=words] textarea").send_keys(" Tea after.")
    wait(driver, lambda d: text_of(d, "[data-slot=words-state]") == "Saved", message="the edited words were not saved")
    assert_accessible(driver)
    look(driver, f"entry-editing-{size}")
    poll(lambda: any(entry.get("transcript_clean") == "Lunch with Siobhan by the canal. Tea after."
                     for entry in server_entries(server, driver)), message="the server does not have the edited words")
    # The way back leads to Home, where the entry was opened from
    assert text_of(driver, ".detail [data-action=back]") == "← Home"
    click(driver, ".detail [data-action=back]")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".home [data-slot=today-list] .entry"), message="back did not lead Home")


def transcribing(server, entry_id, percent):
    """Marks an entry as the server's worker does while it transcribes a long recording and has heard `percent` of it."""
    with sqlite3.connect(os.path.join(server.data, "myday.sqlite"), timeout=30) as database:
        (sequence,) = database.execute(
            "UPDATE users SET change_seq = change_seq + 1 WHERE id = (SELECT user_id FROM entries WHERE id = ?) "
            "RETURNING change_seq", (entry_id,)).fetchone()
        database.execute("UPDATE entries SET status = 'transcribing', transcription_percent = ?, change_seq = ? WHERE id = ?",
                         (percent, sequence, entry_id))


def test_a_long_recording_being_transcribed_shows_how_far_the_server_is(server, browser):
    driver = browser
    register(driver, server)
    # Given a half-hour recording of today, which the server has begun to transcribe
    entry_id = in_page(driver, """
        const id = crypto.randomUUID();
        await api.call('POST', '/v1/entries', { id, created_at: new Date().toISOString(), duration_s: 1800, kind: 'audio',
                                                tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
                                                size_bytes: 4096, content_type: 'audio/mp4' });
        return id;""")
    transcribing(server, entry_id, None)
    wait(driver, lambda d: rows(d) and rows(d)[0][2] == "Transcribing…", message="Home does not show the transcription")
    # When the server has heard 40% of it, then 65%, Home's row says so as it goes
    transcribing(server, entry_id, 40)
    wait(driver, lambda d: rows(d)[0][2] == "Transcribing… 40%", message="Home does not say how far the server is")
    # (on its own line, so the row's words keep their width on a phone)
    assert driver.execute_script("return document.querySelector('.home .entry .words').getBoundingClientRect().width") > 80
    look(driver, "home-transcribing-progress")
    transcribing(server, entry_id, 65)
    wait(driver, lambda d: rows(d)[0][2] == "Transcribing… 65%", message="Home did not follow the progress")
    # And the entry itself says so
    click(driver, ".home [data-slot=today-list] li:first-child .entry")
    wait(driver, lambda d: text_of(d, ".detail [data-slot=status]") == "Transcribing… 65%",
         message="the entry does not say how far the server is")
    assert_accessible(driver)


def test_reading_is_comfortable_at_320_px_with_a_large_browser_font(server, browser):
    driver = browser
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 320, "height": 640, "deviceScaleFactor": 1, "mobile": False})
    driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 24, "fixed": 20}})
    register(driver, server)
    # Text follows the browser's font size (17 px at its default 16 px)
    assert driver.execute_script("return parseFloat(getComputedStyle(document.body).fontSize)") == 25.5
    # Given a recording whose words run long, and a typed entry with a long title
    record_seconds(driver, 2)
    long_words = " ".join(f"Sentence number {n} of a long evening by the river." for n in range(1, 41))
    in_page(driver, """
        const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
        const id = crypto.randomUUID();
        await api.call('POST', '/v1/entries', { id, created_at: new Date().toISOString(), tz: zone, duration_s: 0, kind: 'text',
                                                text: 'Short.' });
        await api.call('PATCH', `/v1/entries/${id}`, { title: 'A very long title about the walk by the river and the long lunch with everyone afterwards, which went on' });
        return true;""")
    wait(driver, lambda d: [status for status, _, _ in rows(d)][-1:] == ["transcribed"], message="the recording was not transcribed")
    audio_id = [entry for entry in server_entries(server, driver) if entry["kind"] == "audio"][0]["id"]
    in_page(driver, f"await api.call('PATCH', '/v1/entries/{audio_id}', {{ text: '{long_words}' }}); return true;")

    def no_sideways_scroll(where):
        width = driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], f"{where} scrolls sideways: {width}"

    # Nothing scrolls sideways on any screen, and rows show at most two lines of their words
    no_sideways_scroll("Home")
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Library]").click()
    wait(driver, lambda d: len(rows(d)) == 2, message="the Library did not list both")
    no_sideways_scroll("the Library")
    lines = driver.execute_script("""
        return [...document.querySelectorAll('.entry .words')].map((e) =>
          Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)))""")
    assert max(lines) == 2, lines
    for page in ("#/profile", "#/insights", f"#/entry/{audio_id}"):
        driver.get(server.url + "/" + page)
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "main .view"), message=f"{page} did not open")
        no_sideways_scroll(page)
    # The long transcript reads in paragraphs, and the player stays on screen at its end
    wait(driver, lambda d: "Sentence number 40" in text_of(d, "[data-slot=transcript]"), message="the long words did not show")
    paragraphs = driver.execute_script("return document.querySelector('[data-slot=transcript]').textContent.split('\\n\\n').length")
    assert paragraphs == 8, paragraphs
    driver.execute_script("document.querySelector('[data-slot=transcript]').scrollIntoView({ block: 'end' })")
    player = driver.execute_script(
        "const r = document.querySelector('[data-slot=audio]').getBoundingClientRect(); return [r.top, r.bottom, innerHeight]")
    assert player[0] >= 0 and player[1] <= player[2], player
    look(driver, "entry-long-320")
    # Paragraphs also end at a pause after a sentence, when the words have times
    ends = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/app/ui.js').then((ui) => done(ui.paragraphEnds([
          { word: 'We', start: 0, end: 0.2 }, { word: 'walked.', start: 0.3, end: 0.8 }, { word: 'Then', start: 2.6, end: 2.9 },
          { word: 'rain.', start: 3.0, end: 3.4 }, { word: 'Home', start: 3.6, end: 3.9 }, { word: 'Mr.', start: 4.0, end: 4.2 },
        ])));""")
    assert ends == [1], ends


def test_the_password_is_changed_and_every_device_signed_out_from_the_profile(server, browser, speech):
    driver = browser
    email = register(driver, server)
    # Given the same account signed in on a second device
    other = start_chromium(speech)
    try:
        sign_in(other, server, email)
        click(driver, "[aria-label=Profile]")
        form = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-form=password]"))
        assert_accessible(driver)
        look(driver, "profile-settings")
        # A wrong current password and a weak new one are refused next to their fields, changing nothing
        form.find_element(By.NAME, "current").send_keys("not my password")
        form.find_element(By.NAME, "next").send_keys("a brand new diary password")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(driver, lambda d: "wrong" in text_of(d, "[data-slot=current-error]"), message="a wrong password was not refused")
        assert form.find_element(By.NAME, "current").get_attribute("aria-invalid") == "true"
        form.find_element(By.NAME, "current").clear()
        form.find_element(By.NAME, "current").send_keys(PASSWORD)
        form.find_element(By.NAME, "next").clear()
        form.find_element(By.NAME, "next").send_keys("password1")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(driver, lambda d: text_of(d, "[data-slot=next-error]") != "", message="a common password was not refused")
        # When it is changed, this browser stays signed in and the other device is signed out
        form.find_element(By.NAME, "next").clear()
        form.find_element(By.NAME, "next").send_keys("a brand new diary password")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(driver, lambda d: "this one stays signed in" in text_of(d, "[data-slot=password-status]"), message="not changed")
        other.refresh()
        wait(other, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"), message="the other device stayed signed in")
        driver.refresh()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=password]"), message="this browser was signed out")
        # Signing out everywhere asks, then ends every sign-in, this one's too
        sign_in(other, server, email, password="a brand new diary password")
        click(driver, "[data-action=signout-everywhere]")
        wait(driver, expected_conditions.alert_is_present(), message="signing out everywhere did not ask").accept()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"), message="not signed out here")
        other.refresh()
        wait(other, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"), message="not signed out on the other device")
    finally:
        quit_chromium(other)


def refresh_in_another_tab_at_the_next_sign_in(driver, action, *arguments):
    """Runs `action` (a JavaScript function of the page's api module and `arguments`) while another tab, at the moment
    this one asks to sign in, refreshes its sign-in through the lock every tab's refresh takes. Answers what `action`
    answered and the status of the other tab's refresh. (`action` is written into the script: the page's
    Content-Security-Policy allows no `eval`.)"""
    return driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        const values = Array.from(arguments).slice(0, -1);
        const action = ACTION;
        const realFetch = window.fetch;
        let otherTab = null;
        window.fetch = (input, init) => {
          if (!otherTab && String(input).endsWith('/v1/auth/web/login')) {
            otherTab = navigator.locks.request('myday-refresh', () => realFetch('/v1/auth/web/refresh',
              { method: 'POST', credentials: 'same-origin', headers: { 'X-MyDay-Web': '1' } }).then((r) => r.status));
          }
          return realFetch(input, init);
        };
        import('/app/api.js').then(async (api) => {
          const answered = await action(api, ...values);
          window.fetch = realFetch;
          done({ answered, otherTab: await otherTab });
        }).catch((error) => done(String(error)));""".replace("ACTION", action),
        *arguments)


def test_a_refresh_in_another_tab_during_a_password_change_waits_and_this_browser_stays_signed_in(server, browser):
    driver = browser
    register(driver, server)
    click(driver, "[aria-label=Profile]")
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-form=password]"))
    # Given another tab that refreshes its sign-in just as this one, its password changed, signs in again with the new
    outcome = refresh_in_another_tab_at_the_next_sign_in(
        driver, "(api, current, next) => api.changePassword(current, next)", PASSWORD, "a brand new diary password")
    # Then the other tab's refresh waited for the new sign-in and went on with it, instead of being refused with the
    # old cookie (an answer that clears the cookie, which signed this browser out at its next load when it came last)
    assert outcome == {"answered": True, "otherTab": 200}, outcome
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=password]"), message="this browser was signed out")


def test_a_refresh_in_another_tab_while_this_one_signs_in_again_waits_for_the_new_sign_in(server, browser):
    driver = browser
    email = register(driver, server)
    # Given this browser's sign-in ended elsewhere (its password changed on another device), when it signs in again
    # while another tab refreshes with the ended sign-in's cookie
    outcome = refresh_in_another_tab_at_the_next_sign_in(
        driver,
        """async (api, email, current, next) => {
          await api.call('POST', '/v1/me/password', { current_password: current, new_password: next });
          return (await api.login(email, next)).email;
        }""",
        email, PASSWORD, "a brand new diary password")
    # Then the other tab's refresh waited for the new sign-in and went on with its cookie, instead of being refused with
    # the ended one (an answer that clears the cookie, and could clear the new one), and a reload stays signed in
    assert outcome == {"answered": email, "otherTab": 200}, outcome
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot=record]"), message="signed out after a reload")


def test_an_entry_is_backdated_and_moved_to_another_day(server, browser):
    driver = browser
    register(driver, server)
    zone = driver.execute_script("return Intl.DateTimeFormat().resolvedOptions().timeZone")

    def set_when(form, value):
        driver.execute_script(
            "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', { bubbles: true }))",
            driver.find_element(By.CSS_SELECTOR, f"{form} [name=when]"), value)

    # A note about three days ago at 20:15 belongs to that day; a time still to come is refused at its field
    three_days_ago = driver.execute_script(
        "const d = new Date(Date.now() - 3 * 86400000); return d.toLocaleDateString('en-CA', { timeZone: arguments[0] })", zone)
    driver.find_element(By.CSS_SELECTOR, "[data-action=type]").click()
    driver.find_element(By.NAME, "text").send_keys("The concert with Przemek.")
    set_when("[data-form=typed]", "2099-01-01T10:00")
    driver.find_element(By.CSS_SELECTOR, "[data-form=typed] button[type=submit]").click()
    wait(driver, lambda d: "has not come yet" in text_of(d, "[data-slot=typed-error]"), message="a future time was not refused")
    assert outbox(driver) == []
    set_when("[data-form=typed]", f"{three_days_ago}T20:15")
    driver.find_element(By.CSS_SELECTOR, "[data-form=typed] button[type=submit]").click()
    wait(driver, lambda d: len(server_entries(server, d)) == 1, message="the backdated note never reached the server")
    entry = server_entries(server, driver)[0]
    shown = driver.execute_script(
        "return new Date(arguments[0]).toLocaleString('sv-SE', { timeZone: arguments[1] }).slice(0, 16)", entry["created_at"], zone)
    assert shown == f"{three_days_ago} 20:15", (shown, entry)
    assert driver.find_element(By.CSS_SELECTOR, ".home [data-slot=today]").get_attribute("hidden") is not None
    # Moved in the entry to the 2nd of that month at 07:05, it is that day's in the Library
    day = three_days_ago[:8] + "02"
    click(driver, "[aria-label=Library]")
    click(driver, ".entry")
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-form=edit] [name=when]").get_attribute("value") == f"{three_days_ago}T20:15",
         message="the entry does not show when it was made")
    set_when("[data-form=edit]", f"{day}T07:05")
    driver.find_element(By.CSS_SELECTOR, "[data-form=edit] button[type=submit]").click()
    wait(driver, lambda d: text_of(d, "[data-slot=saved]") == "Saved", message="the new date was not saved")
    moved = server_entries(server, driver)[0]
    assert driver.execute_script(
        "return new Date(arguments[0]).toLocaleString('sv-SE', { timeZone: arguments[1] }).slice(0, 16)",
        moved["created_at"], zone) == f"{day} 07:05", moved
    page = in_page(driver, f"return await api.call('GET', '/v1/days/{day}?tz={zone}');")
    assert [listed["id"] for listed in page["entries"]] == [moved["id"]], page


def test_signing_out_offline_ends_the_session(server, browser):
    driver = browser
    register(driver, server)
    # Given an entry waiting for the server and no network, signing out asks, then signs out here at once
    network(driver, offline=True)
    type_entry(driver, "Written on the train.")
    wait(driver, lambda d: [state for _, state in outbox(d)] == ["queued"])
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Profile]").click()
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-action=signout]")).click()
    alert = wait(driver, expected_conditions.alert_is_present(), message="signing out with an unsent entry did not ask")
    assert alert.text.startswith("1 entry has not reached the server yet"), alert.text
    alert.accept()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"), message="not signed out offline")
    # Then, back online, a reload asks for the password, and the browser's sign-in cookie no longer works
    network(driver)
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"), message="the diary opened without a password")
    wait(driver, lambda d: d.execute_script("return localStorage.getItem('myday.signingOut')") is None,
         message="the sign-out never reached the server")
    status = driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        fetch('/v1/auth/web/refresh', { method: 'POST', headers: { 'X-MyDay-Web': '1' } }).then((r) => done(r.status), (e) => done(String(e)));""")
    assert status == 401, status
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"), message="the diary opened without a password")
    # The unsent entry stays in this browser for its account, and another account never sees it
    register(driver, server)
    assert driver.find_elements(By.CSS_SELECTOR, "[data-slot=pending] li") == []
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Library]").click()
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=empty]").is_displayed())
    assert [state for _, state in outbox(driver)] == ["queued"]
    assert server_entries(server, driver) == []


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


def test_an_upload_under_way_does_not_search_again_for_each_step_of_its_progress(server, browser):
    driver = browser
    register(driver, server)
    type_entry(driver, "Walked along the pier after work.")
    # Given a search in the Library
    click(driver, "[aria-label=Library]")
    search_for(driver, "pier")
    wait(driver, lambda d: len(hits(d)) == 1, message="the typed entry was not found")
    # Counting from now on the page's searches, and the steps of each upload's progress the browser reports
    driver.execute_script(
        """window.searches = 0;
        window.steps = 0;
        const fetchAsBefore = window.fetch;
        window.fetch = (resource, init) => {
          if (String(resource.url ?? resource).includes('/v1/search')) window.searches += 1;
          return fetchAsBefore(resource, init);
        };
        const sendAsBefore = XMLHttpRequest.prototype.send;
        XMLHttpRequest.prototype.send = function (body) {
          this.upload.addEventListener('progress', () => (window.steps += 1));
          return sendAsBefore.call(this, body);
        };""")
    # When a recording is imported from there and goes up slowly, its progress reported many times
    folder = tempfile.mkdtemp(prefix="myday-progress-")
    recording = os.path.join(folder, "Evening.wav")
    subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=duration=20", "-ar", "16000",
                    recording], check=True)
    click(driver, ".import-link")
    files = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=files-input]"), message="Import did not open")
    network(driver, upload_bytes_per_second=128_000)
    files.send_keys(recording)
    wait(driver, lambda d: text_of(d, "[data-slot=summary]") == "1 imported, 0 already in your diary, 0 not imported.",
         timeout=3 * DEADLINE, message="the recording was not imported")
    network(driver)
    shutil.rmtree(folder, ignore_errors=True)
    steps, searches = driver.execute_script("return [window.steps, window.searches]")
    assert steps >= 10, f"the upload reported {steps} steps ({searches} searches): too fast to tell"
    # Then the Library searched again for what changed (the queue, the server's new entry), not for each step
    assert searches <= steps / 3, f"{searches} searches for {steps} steps of progress"


def test_a_recording_the_server_refuses_can_be_saved_as_a_file_and_then_removed(browser):
    # Given a server that takes uploads of at most 1,000 bytes
    data = tempfile.mkdtemp(prefix="myday-small-uploads-")
    server = Server(data, MYDAY_MAX_UPLOAD_BYTES="1000")
    try:
        driver = browser
        register(driver, server)
        # When a recording larger than that is saved, the server refuses it: it waits on Home, refused
        record_seconds(driver, 2)
        wait(driver, lambda d: [state for _, state in outbox(d)] == ["refused"], message="the recording was not refused")
        click(driver, "[data-slot=pending] li, .today .entry")
        wait(driver, lambda d: text_of(d, "[data-slot=status]").startswith("Not uploaded:"), message="the refusal was not said")
        # Then it can be saved as a file, the recording this browser holds
        save = driver.find_element(By.CSS_SELECTOR, "[data-slot=save-recording]")
        assert save.is_displayed() and re.fullmatch(r"My Day \d{4}-\d\d-\d\d \d\d-\d\d\.webm", save.get_attribute("download"))
        href = save.get_attribute("href")
        assert href.startswith("blob:") and href == driver.find_element(By.CSS_SELECTOR, "[data-slot=audio]").get_attribute("src")
        # And removed, once the person confirms; dismissed, it stays
        remove = driver.find_element(By.CSS_SELECTOR, "[data-action=delete]")
        assert remove.text == "Remove from this device"
        remove.click()
        assert "only copy" in driver.switch_to.alert.text
        driver.switch_to.alert.dismiss()
        assert len(outbox(driver)) == 1
        remove.click()
        driver.switch_to.alert.accept()
        wait(driver, lambda d: outbox(d) == [], message="the refused recording was not removed")
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)


def test_a_recording_stops_and_is_saved_just_short_of_the_longest_length_the_server_keeps(server, browser):
    driver = browser
    # Given a server whose longest recording is 6 s (the page is told so in place of the 3 hours the server says)
    driver.get(server.url + "/")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"))
    driver.execute_script(
        """const fetchAsBefore = window.fetch;
        window.fetch = async (resource, init) => {
          const answer = await fetchAsBefore(resource, init);
          if (!String(resource.url ?? resource).endsWith('/v1/config')) return answer;
          const config = await answer.json();
          return new Response(JSON.stringify({ ...config, max_recording_seconds: 6 }), { headers: answer.headers });
        };""")
    driver.find_element(By.CSS_SELECTOR, "[data-action=switch]").click()
    driver.find_element(By.NAME, "email").send_keys(f"long-{uuid.uuid4().hex[:8]}@example.com")
    driver.find_element(By.NAME, "password").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "[data-slot=submit]").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot=record]"), message="not signed in")
    # When a recording goes on, then it is told a minute is left, and it stops by itself and is saved 2 s short of 6 s
    # (a file a fraction longer than the clock said would be refused)
    start_recording(driver)
    wait(driver, lambda d: "One minute left: My Day keeps recordings of up to 0:06." in page_text(d), message="no warning")
    wait(driver, lambda d: "Stopped: My Day keeps recordings of up to 0:06. Saved." in page_text(d),
         timeout=2 * DEADLINE, message="the recording did not stop at the longest length")
    held = in_page(driver, "return (await db.all('outbox')).map((item) => item.duration)")
    uploaded = [entry["duration_s"] for entry in server_entries(server, driver)]
    assert all(3.5 <= seconds <= 5 for seconds in held + uploaded) and len(held + uploaded) >= 1, (held, uploaded)


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


def shown_after_next_frame(driver, selector):
    """The text of `selector` once the page has drawn two more frames."""
    return driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        requestAnimationFrame(() => requestAnimationFrame(() => done(document.querySelector(arguments[0]).textContent)));""", selector)


def test_a_recording_shows_on_every_screen(server, browser):
    driver = browser
    register(driver, server)
    bar = lambda d: d.find_element(By.ID, "recording-bar")
    bar_clock = lambda d: text_of(d, "#recording-bar [data-slot=recording-elapsed]")
    assert not bar(driver).is_displayed()
    start_recording(driver)
    # On Home the record button shows it; on any other screen, the bar under the header (outside the page's main part)
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Library]").click()
    wait(driver, lambda d: bar(d).is_displayed(), message="no recording bar in the Library")
    assert driver.execute_script("return !document.getElementById('view').contains(document.getElementById('recording-bar'))")
    shown = seconds_of(bar_clock(driver))
    wait(driver, lambda d: seconds_of(bar_clock(d)) > shown, message="the bar's clock does not run")
    assert text_of(driver, "#recording-bar [data-slot=recording-state]") == "Recording"
    look(driver, "library-recording")
    assert_accessible(driver)
    # Pausing from the bar stops its clock; resuming starts it again
    driver.find_element(By.CSS_SELECTOR, "#recording-bar [data-action=pause]").click()
    wait(driver, lambda d: text_of(d, "#recording-bar [data-slot=recording-state]") == "Paused")
    wait(driver, lambda d: live(d) == "Paused", message="the pause was not announced")
    assert text_of(driver, "#recording-bar [data-action=pause]") == "Resume"
    paused_at = shown_after_next_frame(driver, "#recording-bar [data-slot=recording-elapsed]")
    began = browser_now(driver)
    wait(driver, lambda d: browser_now(d) - began >= 1500)
    assert shown_after_next_frame(driver, "#recording-bar [data-slot=recording-elapsed]") == paused_at
    driver.find_element(By.CSS_SELECTOR, "#recording-bar [data-action=pause]").click()
    wait(driver, lambda d: seconds_of(bar_clock(d)) > seconds_of(paused_at), message="resuming from the bar did not resume")
    # The Profile shows it too, and the bar leads back to Home, where the recording goes on
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Profile]").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".profile"))
    assert bar(driver).is_displayed()
    driver.find_element(By.CSS_SELECTOR, "#recording-bar [data-action=home]").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".home"))
    assert not bar(driver).is_displayed()
    assert label(driver) == "Recording — tap to pause"
    # Stopping from the bar saves it, and the bar goes
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Library]").click()
    wait(driver, lambda d: bar(d).is_displayed())
    driver.find_element(By.CSS_SELECTOR, "#recording-bar [data-action=stop]").click()
    wait(driver, lambda d: live(d) == "Saved", message="stopping from the bar did not save")
    wait(driver, lambda d: not bar(d).is_displayed(), message="the bar stayed after the recording stopped")
    wait(driver, lambda d: len(server_entries(server, d)) == 1, message="the recording never reached the server")


def entry_id(driver):
    """The id of the entry the page shows."""
    return driver.execute_script("return location.hash.split('/')[2]")


@pytest.mark.whisper
def test_changes_show_live_in_another_browser(server, browser, speech):
    driver = browser
    email = register(driver, server)
    # The change feed's reader: events split anywhere, comments skipped, CRLF or LF
    parsed = driver.execute_async_script(
        r"""const done = arguments[arguments.length - 1];
        import('/app/live.js').then(({ eventParser }) => {
          const events = [];
          const feed = eventParser((event) => events.push(event));
          for (const piece of [': keep-alive\n\nevent: change\ndata: {"change_seq"', ': 7}\n', '\n',
                               'event: change\r\ndata: {"change_seq": 8}\r\n\r\n']) feed(piece);
          done(events);
        }, (e) => done(String(e)));""")
    assert parsed == [{"event": "change", "data": '{"change_seq": 7}'}, {"event": "change", "data": '{"change_seq": 8}'}], parsed
    other = start_chromium(speech)
    try:
        sign_in(other, server, email)
        other.execute_script("window.sameDocument = true")
        other.find_element(By.CSS_SELECTOR, "[aria-label=Library]").click()
        wait(other, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=empty]").is_displayed())
        # Given the second browser shows the Library, a typed entry here appears there by itself
        type_entry(driver, "Typed in the first browser.")
        wait(other, lambda d: [words for _, words, _ in rows(d)] == ["Typed in the first browser."],
             message="the typed entry never appeared in the other browser")
        # A recording here appears there, and becomes transcribed there, by itself
        record_seconds(driver, 4)
        wait(other, lambda d: d.execute_script("return document.querySelector('.entry:has(.length)')?.dataset.status") == "transcribed",
             timeout=5 * DEADLINE, message="the recording never showed as transcribed in the other browser")
        # Both open it; a new title here shows there
        click(other, ".entry:has(.length)")
        wait(other, lambda d: text_of(d, "[data-slot=transcript]").strip())
        driver.find_element(By.CSS_SELECTOR, "[aria-label=Library]").click()
        click(driver, ".entry:has(.length)")
        title = wait(driver, lambda d: d.find_element(By.NAME, "title"))
        title.send_keys("Evening walk")
        driver.find_element(By.CSS_SELECTOR, "[data-form=edit] button[type=submit]").click()
        wait(other, lambda d: text_of(d, ".detail [data-slot=title]") == "Evening walk", message="the new title never showed there")
        # "Transcribe again" there: the open entry says "Transcribing…", then shows its transcript by itself (and
        # so does the first browser, which may or may not see it transcribing in between)
        other.execute_script(
            """const status = document.querySelector('.detail [data-slot=status]');
            window.statuses = [];
            new MutationObserver(() => window.statuses.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });""")
        before = in_page(other, f"return (await db.get('entries', '{entry_id(other)}')).updated_at")
        assert re.match(r"\d{4}-\d\d-\d\dT", before), before
        other.find_element(By.CSS_SELECTOR, "[data-action=retranscribe]").click()
        wait(other, lambda d: "Transcribing…" in d.execute_script("return window.statuses"), message="never said Transcribing…")
        for page in (other, driver):
            wait(page, lambda d: in_page(d, f"return (await db.get('entries', '{entry_id(d)}')).updated_at") > before
                 and text_of(d, ".detail [data-slot=status]") == "" and text_of(d, "[data-slot=transcript]").strip(),
                 timeout=5 * DEADLINE, message="the open entry never showed its new transcript")
        # All of it came through the change feed, in the same page, never reloaded
        assert other.execute_script("return window.sameDocument") is True
        assert other.execute_script("return document.body.dataset.updates") == "live"
    finally:
        quit_chromium(other)


def test_dark_mode_and_reduced_motion(server, browser):
    driver = browser
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
        {"name": "prefers-color-scheme", "value": "dark"}, {"name": "prefers-reduced-motion", "value": "reduce"}]})
    register(driver, server)
    background = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(23, 22, 20)", background
    transition = driver.execute_script("return getComputedStyle(document.querySelector('.record')).transitionDuration")
    assert transition in ("0s", "0s, 0s"), transition


def test_provider_buttons_appear_only_when_configured(server, browser):
    driver = browser
    driver.get(server.url + "/")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"))
    assert not driver.find_element(By.CSS_SELECTOR, "[data-action=apple]").is_displayed()
    assert not driver.find_element(By.CSS_SELECTOR, "[data-action=google]").is_displayed()
    look(driver, "sign-in")
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
    """The mails the server wrote to its outbox (it mails nothing else here) whose subject has `subject`, oldest
    first (by the time each file was written: two mails in one second share the second of their names)."""
    folder = os.path.join(server.data, "outbox")
    names = [name for name in os.listdir(folder) if name.endswith(".eml")] if os.path.isdir(folder) else []
    names.sort(key=lambda name: (os.stat(os.path.join(folder, name)).st_mtime_ns, name))
    texts = [open(os.path.join(folder, name), encoding="utf-8").read() for name in names]
    return [text for text in texts if subject in text]


def mailed_link(server, subject, page):
    mail = poll(lambda: (mails(server, subject) or [None])[-1], message=f"no mail '{subject}'")
    return re.search(rf"http://\S+/#/{page}/[A-Za-z0-9_-]+", mail).group(0)


@contextlib.contextmanager
def mailing_server():
    """A server of its own that mails (into its outbox), with its public URL on a port chosen here; an address may be
    mailed a few links a minute."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data = tempfile.mkdtemp(prefix="myday-web-")
    server = Server(data, port=str(port), MYDAY_PUBLIC_URL=f"http://127.0.0.1:{port}",
                    MYDAY_RATE_LIMIT_ACCOUNT_MAILS_PER_MINUTE="5")
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)


def test_confirm_the_address_export_delete_and_forgot_password(browser):
    driver = browser
    with mailing_server() as server:
        # A new account is asked to confirm its address, and the mailed link does it
        email = register(driver, server)
        driver.find_element(By.CSS_SELECTOR, "[aria-label=Profile]").click()
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=unverified]").is_displayed())
        assert driver.find_element(By.CSS_SELECTOR, "[data-action=resend]").is_displayed()
        # Sent again twice: the second time it says the earlier link no longer works, and so it is
        first_link = mailed_link(server, "Confirm your email address", "verify")
        for sent in (2, 3):
            driver.find_element(By.CSS_SELECTOR, "[data-action=resend]").click()
            poll(lambda: len(mails(server, "Confirm your email address")) == sent, message="the link was not sent again")
        wait(driver, lambda d: "the one in the earlier mail no longer does" in text_of(d, "[data-slot=resent]"),
             message="sending again did not say the earlier link stopped working")
        driver.get(first_link)
        wait(driver, lambda d: "is confirmed" not in d.find_element(By.CSS_SELECTOR, "[data-slot=status]").text
             and d.find_element(By.CSS_SELECTOR, "[data-slot=status]").text != "", message="the earlier link did not answer")
        assert "is confirmed" not in driver.find_element(By.CSS_SELECTOR, "[data-slot=status]").text
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
        look(driver, "forgot-password")
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


def post_json(server, path, body):
    """A JSON POST to the server, as another client than this browser; answers (status, parsed body)."""
    request = urllib.request.Request(server.url + path, method="POST", headers={"Content-Type": "application/json"},
                                     data=json.dumps(body).encode())
    try:
        with urllib.request.urlopen(request, timeout=DEADLINE) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read() or b"null")


def test_the_owner_of_an_address_someone_else_registered_takes_the_account_with_the_mailed_link(browser):
    driver = browser
    with mailing_server() as server:
        # A stranger registers the owner's address; the confirmation mail reaches the owner, signed out here
        email = f"owner-{os.urandom(4).hex()}@example.com"
        status, _ = post_json(server, "/v1/auth/email/register", {"email": email, "password": "the stranger's passphrase"})
        assert status == 201
        driver.get(mailed_link(server, "Confirm your email address", "verify"))
        # The page does not confirm the stranger's account; it asks who is here
        choices = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=choices]"))
        wait(driver, lambda d: choices.is_displayed(), message="the choices never showed")
        look(driver, "verify-who-is-here")
        driver.find_element(By.CSS_SELECTOR, "[data-action=claim]").click()
        form = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-form=reset]"))
        form.find_element(By.NAME, "password").send_keys("the owner's own passphrase")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot=record]"), message="not signed in after claiming")
        # The stranger's password no longer opens the account
        status, _ = post_json(server, "/v1/auth/email/login", {"email": email, "password": "the stranger's passphrase"})
        assert status == 401
        # The Profile lists the one way in left, and offers no way to remove it
        driver.find_element(By.CSS_SELECTOR, "[aria-label=Profile]").click()
        item = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=sign-ins] li"))
        assert email in item.text
        assert driver.find_elements(By.CSS_SELECTOR, "[data-slot=sign-ins] li button") == []
        wait(driver, lambda d: not d.find_element(By.CSS_SELECTOR, "[data-slot=unverified]").is_displayed())
        look(driver, "profile-ways-to-sign-in")


def make_entries(driver, specs):
    """Typed entries made through the API with the page's session, then synced into this browser: each spec is
    {text, title?, tags?, days_ago?} (without days_ago: 19:00 on Wednesday last week), in the browser's time
    zone; answers their ids, in order."""
    return in_page(driver, """
        const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
        const ids = [];
        for (const spec of %s) {
          const at = new Date();
          at.setHours(19, 0, 0, 0);
          if (spec.days_ago === undefined) at.setDate(at.getDate() - ((at.getDay() + 6) %% 7) - 5);
          else at.setDate(at.getDate() - spec.days_ago);
          const id = crypto.randomUUID();
          await api.call('POST', '/v1/entries', { id, created_at: at.toISOString(), tz, kind: 'text', text: spec.text });
          if (spec.title || spec.tags) await api.call('PATCH', `/v1/entries/${id}`, { title: spec.title ?? '', tags: spec.tags ?? [] });
          ids.push(id);
        }
        await sync.sync();
        return ids;""" % json.dumps(specs))


def hits(driver):
    """The search's hits as shown: [[id, words, marked words of the title line, marked words of the snippet], …]."""
    return driver.execute_script(
        """const marks = (e) => e ? [...e.querySelectorAll('mark')].map((m) => m.textContent) : [];
        return [...document.querySelectorAll('.hits .entry')].map((e) =>
            [e.dataset.id, e.querySelector('.words').textContent, marks(e.querySelector('.words')), marks(e.querySelector('.snippet'))])""")


def filter_chips(driver):
    return driver.execute_script("return [...document.querySelectorAll('[data-slot=filter-chips] .filter-chip')].map((c) => c.firstChild.textContent)")


def search_for(driver, text):
    """Types into the Library's search box, once the Library is on screen (navigating there renders it a moment later)."""
    box = wait(driver, lambda d: next(iter(d.find_elements(By.CSS_SELECTOR, "[data-slot=search]")), None),
               message="the Library's search box")
    box.clear()
    box.send_keys(text)


def shown_ids(driver):
    return [hit[0] for hit in hits(driver)]


def test_offline_search_reads_date_phrases_as_the_server_does(server, browser):
    # The cases the server's tests hold MyDaySearch to (Tests/Tools/date-phrase-cases.json)
    with open(os.path.join(os.path.dirname(__file__), "..", "Tools", "date-phrase-cases.json")) as file:
        shared = json.load(file)
    browser.get(server.url + "/")
    read = browser.execute_async_script(
        """const [cases, today, done] = arguments;
        import('/app/search.js').then((search) => done(Object.fromEntries(Object.keys(cases).map((text) => {
          const query = search.parseQuery(text, today);
          return [text, query.from ? `${query.from}…${query.to}` : null];
        }))), (e) => done(String(e)));""", shared["cases"], shared["today"])
    assert read == shared["cases"]


def test_search_finds_marks_filters_and_pages(server, browser):
    driver = browser
    register(driver, server)
    cafe_evening, cafe_station, park, _ = make_entries(driver, [
        {"text": "Dinner at the Café with Alex, then a long walk home by the river.", "title": "Café evening", "tags": ["friends", "walk"]},
        {"text": "Coffee at the cafe near the station, then work.", "days_ago": 40},
        {"text": "A walk in the park with Alex.", "days_ago": 60, "tags": ["walk"]},
        {"text": "Nothing happened worth a word.", "days_ago": 61},
    ])
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Library]").click()
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".entry")) == 4)

    # Accents and case aside, words as beginnings of words, best first (the title counts most), matches marked
    search_for(driver, "CAF")
    wait(driver, lambda d: shown_ids(d) == [cafe_evening, cafe_station], message="searching 'CAF'")
    assert hits(driver) == [
        [cafe_evening, "Café evening", ["Café"], ["Café"]],
        [cafe_station, "Coffee at the cafe near the station, then work.", ["cafe"], []],
    ], hits(driver)
    assert text_of(driver, "[data-slot=count]") == "2 matches"
    wait(driver, lambda d: live(d) == "2 matches", message="the count was not announced")
    # Marks are elements holding text, never markup from the server
    assert driver.execute_script("return document.querySelector('.hits mark').children.length") == 0
    # A quoted phrase is words in a row
    search_for(driver, '"walk home"')
    wait(driver, lambda d: hits(d) == [[cafe_evening, "Café evening", [], ["walk", "home"]]], message="searching a phrase")
    # Filler words of a question are left out, and a date phrase becomes a chip that filters by day
    search_for(driver, "what did I do with Alex last week")
    wait(driver, lambda d: filter_chips(d) and shown_ids(d) == [cafe_evening], message="searching with a date phrase")
    chips = filter_chips(driver)
    assert len(chips) == 1 and chips[0].startswith("last week · "), chips
    look(driver, "library-search")
    assert_accessible(driver)
    # Taking the chip off reads "last week" as words: nothing has them, and the page says so
    driver.find_element(By.CSS_SELECTOR, "[data-filter=date-phrase]").click()
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=no-matches]").is_displayed(), message="no 'No matches'")
    assert text_of(driver, "[data-slot=no-matches]") == "No matches for “what did I do with Alex last week”."
    assert filter_chips(driver) == [] and hits(driver) == []
    assert driver.execute_script("return document.activeElement.dataset.slot") == "search"

    # A tag in a hit becomes a filter chip; filters combine with words, and stay shown when nothing matches
    search_for(driver, "alex")
    wait(driver, lambda d: sorted(shown_ids(d)) == sorted([cafe_evening, park]), message="searching 'alex'")
    click(driver, f".hit:has([data-id='{park}']) .tag-filter")
    wait(driver, lambda d: filter_chips(d) == ["Tag: walk"], message="the tag did not become a filter")
    wait(driver, lambda d: sorted(shown_ids(d)) == sorted([cafe_evening, park]))
    assert driver.execute_script("return document.activeElement.dataset.filter") == "tag:walk"
    search_for(driver, "station")
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=no-matches]").is_displayed(), message="the tag filter did not hold")
    assert filter_chips(driver) == ["Tag: walk"]
    # The Filters panel: typed entries only, then a mood; each a chip, each removable
    toggle = driver.find_element(By.CSS_SELECTOR, "[data-action=filters]")
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    driver.find_element(By.CSS_SELECTOR, "[data-kind=text]").click()
    wait(driver, lambda d: filter_chips(d) == ["Typed", "Tag: walk"])
    look(driver, "library-filters")
    assert_accessible(driver)
    click(driver, "[data-filter='tag:walk']")
    wait(driver, lambda d: filter_chips(d) == ["Typed"] and shown_ids(d) == [cafe_station], message="removing the tag chip")
    driver.find_element(By.CSS_SELECTOR, "[data-mood='4']").click()
    wait(driver, lambda d: filter_chips(d) == ["Typed", "Mood 4/5"] and hits(d) == [], message="the mood filter")
    click(driver, "[data-filter='mood:4']")
    wait(driver, lambda d: filter_chips(d) == ["Typed"])
    click(driver, "[data-filter=kind]")
    wait(driver, lambda d: filter_chips(d) == [] and shown_ids(d) == [cafe_station])
    assert driver.find_element(By.CSS_SELECTOR, "[data-kind=text]").get_attribute("aria-pressed") == "false"
    toggle.click()

    # A newer search's answer is never replaced by an older one that arrives late
    driver.execute_script(
        """window.held = [];
        const original = window.fetch;
        window.fetch = (input, init) => String(input).includes('q=river')
          ? new Promise((resolve, reject) => window.held.push(() => original(input, init).then(resolve, reject)))
          : original(input, init);""")
    search_for(driver, "river")
    wait(driver, lambda d: d.execute_script("return window.held.length") > 0, message="the search for 'river' was not sent")
    search_for(driver, "park")
    wait(driver, lambda d: shown_ids(d) == [park], message="searching 'park'")
    stale = driver.execute_script("return Number(document.querySelector('.library').dataset.staleAnswers ?? 0)")
    driver.execute_script("window.held.forEach((release) => release())")
    wait(driver, lambda d: d.execute_script("return Number(document.querySelector('.library').dataset.staleAnswers ?? 0)") > stale,
         message="the late answer was never dropped")
    assert shown_ids(driver) == [park]

    # More than a page: "More results" appends the next one, and the keyboard goes on from its first hit
    rainy = make_entries(driver, [{"text": f"Rain again, day {n}.", "days_ago": 70 + n} for n in range(25)])
    search_for(driver, "rain")
    wait(driver, lambda d: len(hits(d)) == 20, message="the first page")
    assert shown_ids(driver) == rainy[:20]  # no word counts more: newest first
    assert text_of(driver, "[data-slot=count]") == "20 matches so far"
    driver.find_element(By.CSS_SELECTOR, "[data-action=more]").click()
    wait(driver, lambda d: len(hits(d)) == 25, message="the next page")
    assert shown_ids(driver) == rainy
    assert not driver.find_element(By.CSS_SELECTOR, "[data-action=more]").is_displayed()
    assert text_of(driver, "[data-slot=count]") == "25 matches"
    assert driver.execute_script("return document.activeElement.dataset.id") == rainy[20]

    # Offline: the device's copy, by the same rules, with what waits to upload
    network(driver, offline=True)
    search_for(driver, "cafe last week")
    wait(driver, lambda d: "You are offline" in text_of(d, "[data-slot=notice]"), message="the Library does not say it is offline")
    wait(driver, lambda d: hits(d) == [[cafe_evening, "Café evening", ["Café"], ["Café"]]], message="searching offline with a date")
    assert filter_chips(driver)[0].startswith("last week · ")
    driver.find_element(By.ID, "go-home").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot=record]"))
    type_entry(driver, "Café au lait on the train.")
    driver.find_element(By.CSS_SELECTOR, "[aria-label=Library]").click()
    search_for(driver, "CAFÉ")
    wait(driver, lambda d: [hit[1:] for hit in hits(d)] == [
        ["Café evening", ["Café"], ["Café"]],
        ["Café au lait on the train.", ["Café"], []],
        ["Coffee at the cafe near the station, then work.", ["cafe"], []],
    ], message="searching offline")
    wait(driver, lambda d: "Waiting to upload" in text_of(d, ".hits li:nth-child(2) .entry"), message="the waiting entry is not shown as waiting")
    search_for(driver, '"train cafe"')
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-slot=no-matches]").is_displayed(), message="no 'No matches' offline")
    look(driver, "library-search-offline")
    network(driver)


def test_a_recording_goes_to_the_bucket_and_plays_from_it(bucket, browser):
    # Given a server whose blobs live in a bucket, and the bucket's CORS rule for the server's origin (docs/deploy.md)
    data = tempfile.mkdtemp(prefix="myday-web-")
    server = Server(data, **bucket["settings"])
    try:
        bucket["client"].put_bucket_cors(Bucket=bucket["name"], CORSConfiguration={"CORSRules": [{
            "AllowedOrigins": [server.url], "AllowedMethods": ["PUT", "GET", "HEAD"], "AllowedHeaders": ["Content-Type"],
            "ExposeHeaders": ["ETag"], "MaxAgeSeconds": 3600}]})
        driver = browser
        register(driver, server)
        # When a recording is made, then it is uploaded to the bucket (the page may reach it) and transcribed
        record_seconds(driver, 3)
        wait(driver, lambda d: [e["status"] for e in server_entries(server, d)] == ["transcribed"],
             message="the recording was not uploaded to the bucket and transcribed")
        keys = [item["Key"] for item in bucket["client"].list_objects_v2(Bucket=bucket["name"]).get("Contents", [])]
        assert len(keys) == 1 and keys[0].startswith("audio/"), keys
        # And it plays from the bucket in the entry's page
        driver.find_element(By.CSS_SELECTOR, "[aria-label=Library]").click()
        click(driver, ".entry")
        # The entry's page is drawn after the click: wait for its player, then for its source
        wait(driver, lambda d: any((a.get_attribute("src") or "").startswith(bucket["endpoint"])
                                   for a in d.find_elements(By.CSS_SELECTOR, "[data-slot=audio]")),
             message="the audio does not come from the bucket")
        audio = driver.find_element(By.CSS_SELECTOR, "[data-slot=audio]")
        wait(driver, lambda d: d.execute_script("return Number.isFinite(arguments[0].duration) && arguments[0].duration > 0", audio),
             message="the bucket's audio does not play")
        refused = [entry["message"] for entry in driver.get_log("browser") if "Content Security Policy" in entry["message"]]
        assert not refused, refused
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)


def upload_with_words(driver, wav_path, words):
    """An audio entry made with the page's own session: the WAV uploaded, completed with `words` as a phone's own
    transcript (text, start, end), so the server only cleans them. Answers the entry's id."""
    import base64
    import wave

    with wave.open(wav_path) as audio:
        seconds = audio.getnframes() / audio.getframerate()
    with open(wav_path, "rb") as file:
        data = base64.b64encode(file.read()).decode()
    entry_id = str(uuid.uuid4())
    transcript = {"text": " ".join(word for word, _, _ in words), "engine": "test", "language": "en",
                  "words": [{"word": word, "start": start, "end": end} for word, start, end in words]}
    answer = driver.execute_async_script(
        """const [id, data, seconds, transcript, done] = arguments;
        const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
        import('/app/api.js').then(async (api) => {
          const created = await api.call('POST', '/v1/entries', {id, created_at: new Date().toISOString(), tz: 'UTC',
            duration_s: seconds, kind: 'audio', size_bytes: bytes.length, content_type: 'audio/wav'});
          const put = await fetch(created.upload.url, {method: 'PUT', body: bytes, headers: {'Content-Type': 'audio/wav'}});
          if (!put.ok) throw new Error(`upload answered ${put.status}`);
          await api.call('POST', `/v1/entries/${id}/complete`, {transcript});
        }).then(() => done('ok'), (e) => done(String(e)));""", entry_id, data, seconds, transcript)
    assert answer == "ok", answer
    return entry_id


def test_the_transcript_follows_the_audio_and_its_words_can_be_corrected(server, browser, speech):
    driver = browser
    register(driver, server)
    # Given a recording whose words came with their times, the fourth word heard unsurely... by a phone, which
    # gives no probabilities: none is dotted
    spoken = SPOKEN.split()
    words = [(word, 0.4 * index, 0.4 * index + 0.3) for index, word in enumerate(spoken)]
    entry_id = upload_with_words(driver, speech, words)
    poll(lambda: [e for e in server_entries(server, driver) if e["status"] == "transcribed"],
         message="the entry was not transcribed")

    # When the entry is opened, every word is a word the player can start from
    click(driver, "[aria-label=Library]")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".entry"))
    click(driver, ".entry")
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "[data-slot=transcript] .word[data-start]")) == len(spoken),
         message="the transcript's words were not timed")
    assert not driver.find_elements(By.CSS_SELECTOR, "[data-slot=transcript] .word.unsure")
    audio = driver.find_element(By.CSS_SELECTOR, "[data-slot=audio]")
    wait(driver, lambda d: d.execute_script("return arguments[0].readyState >= 1", audio), message="the audio did not load")

    # Tapping the sixth word plays from where it was said, and the word being said is marked as it plays
    driver.find_elements(By.CSS_SELECTOR, "[data-slot=transcript] .word")[5].click()
    wait(driver, lambda d: d.execute_script("return !arguments[0].paused", audio), message="tapping a word did not play")
    assert driver.execute_script("return arguments[0].currentTime", audio) >= 0.4 * 5 - 0.05

    def marked_word_is_being_said(d):
        time, marked = d.execute_script(
            """const current = document.querySelector('[data-slot=transcript] .word.current');
            return [arguments[0].currentTime, current && Number(current.dataset.start)]""", audio)
        return marked is not None and marked <= time < marked + 0.4 + 0.3 and marked >= 0.4 * 6
    wait(driver, marked_word_is_being_said, message="the word being said was not marked while playing")
    driver.execute_script("arguments[0].pause()", audio)
    look(driver, "entry-words")
    assert_accessible(driver)

    # The words are marked as automatic until the person edits them
    assert text_of(driver, "[data-slot=words-origin]") == "Automatic transcript"
    # When the person corrects a word, it is saved as they type, and the corrected word has no time of its own
    click(driver, "[data-action=edit-words]")
    area = driver.find_element(By.CSS_SELECTOR, "[data-form=words] textarea")
    assert area.get_attribute("value") == poll(lambda: server_entries(server, driver))[0]["transcript_clean"]
    corrected = area.get_attribute("value").replace("garden", "allotment")
    area.clear()
    area.send_keys(corrected)
    wait(driver, lambda d: text_of(d, "[data-slot=words-state]") == "Saved", message="the words were not saved")
    poll(lambda: server_entries(server, driver)[0]["transcript_clean"] == corrected, message="the server kept other words")
    # What was heard stays beside the person's words, unchanged
    heard = driver.execute_script("return document.querySelector('[data-slot=heard]').textContent")
    assert heard == server_entries(server, driver)[0]["transcript_raw"] and "garden" in heard, heard
    click(driver, "[data-action=words-done]")
    untimed = driver.execute_script(
        "return [...document.querySelectorAll('[data-slot=transcript] .word:not([data-start])')].map((w) => w.textContent)")
    assert [word.strip(".") for word in untimed] == ["allotment"], untimed
    assert text_of(driver, "[data-slot=words-origin]") == "Edited by you"

    # Offline, what is typed is kept and says so, and it is saved once the server can be reached again
    click(driver, "[data-action=edit-words]")
    network(driver, offline=True)
    area = driver.find_element(By.CSS_SELECTOR, "[data-form=words] textarea")
    area.send_keys(" We stayed until dusk.")
    wait(driver, lambda d: text_of(d, "[data-slot=words-state]").startswith("Offline: your words are kept here"),
         message="the offline state was not shown")
    network(driver)
    driver.execute_script("dispatchEvent(new Event('online'))")
    wait(driver, lambda d: text_of(d, "[data-slot=words-state]") == "Saved", message="the words typed offline were not saved")
    poll(lambda: server_entries(server, driver)[0]["transcript_clean"].endswith("We stayed until dusk."),
         message="the server does not have the words typed offline")
    click(driver, "[data-action=words-done]")

    # "Transcribe again" asks first when the words are the person's; dismissed, nothing is asked of the server
    click(driver, "[data-action=retranscribe]")
    assert "replaces the words you edited" in driver.switch_to.alert.text
    driver.switch_to.alert.dismiss()
    entry = server_entries(server, driver)[0]
    assert entry["status"] == "transcribed" and entry["transcript_clean"].endswith("We stayed until dusk."), entry

    # Words typed offline are saved once the network is back, also after the person went to another screen
    click(driver, "[data-action=edit-words]")
    network(driver, offline=True)
    driver.find_element(By.CSS_SELECTOR, "[data-form=words] textarea").send_keys(" Then home.")
    wait(driver, lambda d: text_of(d, "[data-slot=words-state]").startswith("Offline: your words are kept here"),
         message="the offline state was not shown")
    click(driver, "[aria-label=Library]")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".entry"))
    network(driver)
    driver.execute_script("dispatchEvent(new Event('online'))")
    poll(lambda: server_entries(server, driver)[0]["transcript_clean"].endswith("Then home."),
         message="the words typed offline were lost when the entry was left")
    click(driver, ".entry")
    wait(driver, lambda d: "Then home." in text_of(d, "[data-slot=transcript]"), message="the entry did not open again")

    # And one action goes back to what was heard
    click(driver, "[data-action=edit-words]")
    click(driver, "[data-action=words-heard]")
    driver.switch_to.alert.accept()
    wait(driver, lambda d: text_of(d, "[data-slot=words-state]") == "Saved", message="going back was not saved")
    entry = server_entries(server, driver)[0]
    assert entry["transcript_clean"] == entry["transcript_raw"], entry
    click(driver, "[data-action=words-done]")
    wait(driver, lambda d: text_of(d, "[data-slot=words-origin]") == "Automatic transcript",
         message="the words put back are not marked automatic again")

    # The vocabulary in Profile: words added (two at once), then one removed
    click(driver, "[aria-label=Profile]")
    form = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-form=vocabulary]"))
    def listed(d):
        return d.execute_script(
            "return [...document.querySelectorAll('.vocabulary li > span:first-child')].map((s) => s.textContent)")
    # (the correction taught "allotment", and going back to what was heard took it back)
    learned = in_page(driver, "return (await api.call('GET', '/v1/me/vocabulary')).words;")
    assert learned == [], learned
    form.find_element(By.NAME, "word").send_keys("Siobhan, Dún Laoghaire")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(driver, lambda d: listed(d) == ["Siobhan", "Dún Laoghaire"], message="the words were not added")
    look(driver, "profile-vocabulary")
    assert_accessible(driver)
    # A title written in another tab teaches a word this list does not show yet; removing Siobhan here keeps it
    in_page(driver, """
        const id = crypto.randomUUID();
        await api.call('POST', '/v1/entries', { id, created_at: new Date().toISOString(), tz: 'UTC', duration_s: 0,
                                                kind: 'text', text: 'Dinner.' });
        await api.call('PATCH', `/v1/entries/${id}`, { title: 'Dinner with Przemek' });
        return true;""")
    click(driver, "[aria-label='Remove Siobhan']")
    wait(driver, lambda d: listed(d) == ["Dún Laoghaire", "Przemek"], message="the word was not removed")
    kept = driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
        import('/app/api.js').then((api) => api.call('GET', '/v1/me/vocabulary')).then((v) => done(v.words), (e) => done(String(e)));""")
    assert kept == [{"text": "Dún Laoghaire", "source": "you"}, {"text": "Przemek", "source": "title"}], kept


def test_a_transcript_that_looks_broken_is_marked_in_the_library_with_the_reason(server, browser, speech):
    driver = browser
    register(driver, server)
    # Given a recording whose words loop
    looped = "we walked we walked we walked we walked we walked home".split()
    upload_with_words(driver, speech, [(word, 0.3 * index, 0.3 * index + 0.2) for index, word in enumerate(looped)])
    poll(lambda: [e for e in server_entries(server, driver) if e["status"] == "transcribed"],
         message="the entry was not transcribed")
    # Then the Library marks it, and the entry says why, with Transcribe again at hand
    click(driver, "[aria-label=Library]")
    wait(driver, lambda d: text_of(d, ".entry .pill.review") == "Check the words", message="the entry was not marked")
    click(driver, ".entry")
    wait(driver, lambda d: "comes 5 times in a row" in text_of(d, "[data-slot=status]"), message="the reason was not shown")
    assert driver.find_element(By.CSS_SELECTOR, "[data-action=retranscribe]").is_displayed()
    assert_accessible(driver)


def test_the_day_page_quotes_the_day_and_plays_a_sentence_from_where_it_was_said(server, browser, speech):
    driver = browser
    register(driver, server)
    # Given a recording of today (its words timed) and a typed entry
    spoken = SPOKEN.split()
    upload_with_words(driver, speech, [(word, 0.4 * index, 0.4 * index + 0.3) for index, word in enumerate(spoken)])
    type_entry(driver, "Wrote to Przemek about the allotment plans.")
    poll(lambda: len([e for e in server_entries(server, driver) if e["status"] == "transcribed"]) == 2,
         message="the entries were not both ready")
    # When the day's header in the Library is opened
    click(driver, "[aria-label=Library]")
    click(driver, "h3.day a")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".digest li"), message="the day page showed no digest")
    # Then it quotes the day's own sentences, names both entries, and says how many there were
    entries = server_entries(server, driver)
    texts = [entry["transcript_clean"] for entry in entries]
    quoted = driver.execute_script("return [...document.querySelectorAll('.digest q')].map((q) => q.textContent)")
    assert quoted and all(any(sentence in text for text in texts) for sentence in quoted), (quoted, texts)
    assert text_of(driver, ".day-page [data-slot=meta]").startswith("2 entries")
    assert len(driver.find_elements(By.CSS_SELECTOR, ".day-page .entries .entry")) == 2
    look(driver, "day")
    assert_accessible(driver)
    # And a recorded sentence plays its recording from where it begins
    sentence = driver.find_elements(By.CSS_SELECTOR, ".digest .sentence")
    assert sentence, "no recorded sentence to play"
    sentence[0].click()
    audio = driver.find_element(By.CSS_SELECTOR, ".day-page [data-slot=audio]")
    wait(driver, lambda d: d.execute_script("return !arguments[0].paused", audio), message="the sentence did not play")
    # (the recording's first sentence begins at its first word, 0 s)
    assert driver.execute_script("return arguments[0].currentTime", audio) < 2
    # And an entry of the day written on another device while the page shows joins it
    in_page(driver, """
        await api.call('POST', '/v1/entries', { id: crypto.randomUUID(), created_at: new Date().toISOString(),
          tz: Intl.DateTimeFormat().resolvedOptions().timeZone, duration_s: 0, kind: 'text', text: 'Late swim.' });
        return true;""")
    wait(driver, lambda d: text_of(d, ".day-page [data-slot=meta]").startswith("3 entries"),
         message="the day page did not take the new entry")


def test_suggestions_change_nothing_until_one_is_accepted(server, browser):
    driver = browser
    register(driver, server)
    type_entry(driver, "Planted tomatoes in the garden with Przemek. A wonderful, happy morning in the sun.")
    poll(lambda: server_entries(server, driver), message="the entry did not reach the server")
    click(driver, "[aria-label=Library]")
    click(driver, ".entry")
    # The entry offers a title, tags and a mood from its own words, and is unchanged
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".suggested li"), message="no suggestions were shown")
    assert text_of(driver, ".suggested li").startswith("Title: “")
    entry = server_entries(server, driver)[0]
    assert entry.get("title") is None and entry["tags"] == [] and entry.get("mood") is None, entry
    assert_accessible(driver)
    # One tap accepts the title, and only the title
    suggested_title = text_of(driver, ".suggested li").split("“", 1)[1].rsplit("”", 1)[0]
    click(driver, ".suggested li button")
    poll(lambda: server_entries(server, driver)[0].get("title") == suggested_title, message="the title was not accepted")
    entry = server_entries(server, driver)[0]
    assert entry["tags"] == [] and entry.get("mood") is None, entry
    assert suggested_title.lower() in entry["transcript_clean"].lower()
    wait(driver, lambda d: not any(li.text.startswith("Title") for li in d.find_elements(By.CSS_SELECTOR, ".suggested li")),
         message="the accepted title was still offered")


def test_on_this_day_on_home_and_insights_drawn_from_the_entries(server, browser):
    driver = browser
    register(driver, server)
    # Given typed entries made today, 3 days ago (with a mood), a week ago and a year ago, in the browser's zone
    created = in_page(driver, """
        const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
        const made = [];
        for (const [days, text, mood] of [[0, 'Coffee with Siobhan by the harbour.', 4], [3, 'Rain. Long walk with Siobhan anyway.', 2],
                                          [7, 'Planted the tomatoes with Przemek.', null], [365, 'A year ago: moved to Galway.', 5]]) {
          const at = new Date(Date.now() - days * 86400000);
          const id = crypto.randomUUID();
          await api.call('POST', '/v1/entries', { id, created_at: at.toISOString(), tz: zone, duration_s: 0, kind: 'text', text });
          if (mood) await api.call('PATCH', `/v1/entries/${id}`, { mood });
          made.push({ id, day: new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(at) });
        }
        return made;""")
    assert isinstance(created, list), created
    # When Home is shown again, On this day offers the week-old entry, opening its day
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".on-this-day:not([hidden]) .memories a"),
         message="On this day did not show")
    memories = driver.execute_script(
        "return [...document.querySelectorAll('.memories a')].map((a) => [a.querySelector('strong').textContent, a.textContent])")
    assert memories[0][0] == "A week ago" and "Planted the tomatoes" in memories[0][1], memories
    assert_accessible(driver)
    driver.find_element(By.CSS_SELECTOR, ".memories a").click()
    wait(driver, lambda d: "Planted the tomatoes" in page_text(d) and d.find_elements(By.CSS_SELECTOR, ".day-page"),
         message="the memory did not open its day")
    assert created[2]["day"] in driver.current_url
    # And Insights draw every day of the year, a square for each day with entries, and the mood of two days
    driver.get(server.url + "/#/insights")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".insights [data-slot=calendar] svg"), message="no calendar")
    days = driver.execute_script("return [...document.querySelectorAll('.insights g.day')].map((g) => [g.dataset.date, Number(g.dataset.entries)])")
    assert len(days) == 365, len(days)
    with_entries = sorted(date for date, count in days if count > 0)
    # (the year-old entry is a day outside the last 365 when its date is 365 days back)
    assert with_entries == sorted(entry["day"] for entry in created[:3]), (with_entries, created)
    assert len(driver.find_elements(By.CSS_SELECTOR, ".insights g.day rect.cell")) == 3
    assert len(driver.find_elements(By.CSS_SELECTOR, ".insights circle.point")) == 2
    assert len(driver.find_elements(By.CSS_SELECTOR, ".insights [data-slot=table] tr")) == 3
    label = driver.execute_script("return document.querySelector('.insights g.day[data-entries=\"1\"] title').textContent")
    assert label.endswith(": 1 entry") or "mood" in label, label
    assert "Current streak: 1 day" in text_of(driver, ".insights [data-slot=streak]")
    people = [a.text.split("\n")[0] for a in driver.find_elements(By.CSS_SELECTOR, ".mentions section:first-child a")]
    assert people[:2] == ["Siobhan", "Przemek"], people
    look(driver, "insights")
    assert_accessible(driver)
    # And an entry written on another device while they show is counted, with no second calendar drawn
    in_page(driver, """
        await api.call('POST', '/v1/entries', { id: crypto.randomUUID(), created_at: new Date().toISOString(),
          tz: Intl.DateTimeFormat().resolvedOptions().timeZone, duration_s: 0, kind: 'text', text: 'Evening swim.' });
        return true;""")
    today = created[0]["day"]
    wait(driver, lambda d: d.execute_script(
        "return document.querySelector(`.insights g.day[data-date='${arguments[0]}']`)?.dataset.entries", today) == "2",
         message="Insights did not count the new entry")
    assert len(driver.find_elements(By.CSS_SELECTOR, ".insights [data-slot=calendar] svg")) == 1
    # And a name opens a search for it
    driver.find_element(By.CSS_SELECTOR, ".mentions section:first-child a").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".library") and len(d.find_elements(By.CSS_SELECTOR, ".library .entry")) == 2,
         message="the name did not open its search")


def test_the_daily_reminder_is_set_in_profile_and_turned_off(server, browser):
    driver = browser
    register(driver, server)
    click(driver, "[aria-label=Profile]")
    on = driver.find_element(By.CSS_SELECTOR, "[data-action=reminder-on]")
    wait(driver, lambda d: on.get_attribute("aria-pressed") == "false", message="the reminder did not load")
    # Turned on, at 07:45, on weekdays only, not by mail
    on.click()
    time_input = driver.find_element(By.CSS_SELECTOR, "[data-form=reminder] [name=time]")
    driver.execute_script("arguments[0].value = '07:45'", time_input)
    for day in ("sat", "sun"):
        driver.find_element(By.CSS_SELECTOR, f"[data-day={day}]").click()
    driver.find_element(By.CSS_SELECTOR, "[data-action=reminder-email]").click()
    assert_accessible(driver)
    driver.find_element(By.CSS_SELECTOR, "[data-form=reminder] button[type=submit]").click()
    wait(driver, lambda d: "Reminder saved: 07:45" in text_of(d, "[data-slot=reminder-status]"), message="not saved")
    reminder = in_page(driver, "return await api.call('GET', '/v1/me/reminder');")
    zone = driver.execute_script("return Intl.DateTimeFormat().resolvedOptions().timeZone")
    assert reminder == {"time": "07:45", "tz": zone, "days": ["mon", "tue", "wed", "thu", "fri"], "email": False}, reminder
    # A new visit shows it as set
    driver.refresh()
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-action=reminder-on]").get_attribute("aria-pressed") == "true",
         message="the saved reminder did not show")
    assert driver.find_element(By.CSS_SELECTOR, "[data-day=sat]").get_attribute("aria-pressed") == "false"
    assert not driver.find_element(By.CSS_SELECTOR, "[data-slot=reminder-zone]").is_displayed()
    # One saved in another time zone says whose time it is, until it is saved here again
    other = "Pacific/Chatham" if zone != "Pacific/Chatham" else "Asia/Kathmandu"
    in_page(driver, "return await api.call('PUT', '/v1/me/reminder', "
                    f"{{time: '07:45', tz: '{other}', days: ['mon'], email: false}});")
    driver.refresh()
    wait(driver, lambda d: f"At this time in {other}; this browser is in {zone}." in text_of(d, "[data-slot=reminder-zone]"),
         message="the reminder's other time zone was not said")
    driver.find_element(By.CSS_SELECTOR, "[data-form=reminder] button[type=submit]").click()
    wait(driver, lambda d: "Reminder saved: 07:45" in text_of(d, "[data-slot=reminder-status]"), message="not saved here")
    wait(driver, lambda d: not d.find_element(By.CSS_SELECTOR, "[data-slot=reminder-zone]").is_displayed(),
         message="the time zone note stayed")
    assert in_page(driver, "return await api.call('GET', '/v1/me/reminder');")["tz"] == zone
    # Turned off, it is gone from the server
    driver.find_element(By.CSS_SELECTOR, "[data-action=reminder-on]").click()
    wait(driver, lambda d: text_of(d, "[data-slot=reminder-status]") == "No reminder now.", message="not turned off")
    assert in_page(driver, "return await api.call('GET', '/v1/me/reminder').then(() => 'set', (e) => e.status);") == 404
    # A stop link that is not the server's says so
    driver.get(server.url + "/#/stop-reminders/not-a-token-of-this-server")
    driver.refresh()
    wait(driver, lambda d: "not one of this server's" in page_text(d), message="a bad stop link was not explained")


# The push is delivered to the service worker by its registration's number, which counts a whole profile's registrations.
@pytest.mark.new_chromium
def test_a_pushed_reminder_shows_as_a_notification_and_a_browser_without_a_push_service_says_so(server, browser):
    driver = browser
    register(driver, server)
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.url, "permissions": ["notifications"]})
    click(driver, "[aria-label=Profile]")
    on = driver.find_element(By.CSS_SELECTOR, "[data-action=reminder-on]")
    wait(driver, lambda d: on.get_attribute("aria-pressed") == "false", message="the reminder did not load")
    on.click()
    notify = driver.find_element(By.CSS_SELECTOR, "[data-action=push-on]")
    assert notify.get_attribute("aria-pressed") == "false"
    assert_accessible(driver)
    # Headless Chromium reaches no push service: turning notifications on says so, and nothing is subscribed
    notify.click()
    wait(driver, lambda d: "push service did not answer" in text_of(d, "[data-slot=push-status]"),
         message="a browser that cannot subscribe did not say so")
    assert notify.get_attribute("aria-pressed") == "false"
    assert in_page(driver, "return (await api.call('GET', '/v1/me/push-subscriptions')).subscriptions.length;") == 0
    # The service worker shows what the server pushes (delivered here as the push service would) and nothing else
    driver.execute_script("return navigator.serviceWorker.ready.then(() => true)")
    driver.execute_cdp_cmd("ServiceWorker.enable", {})
    message = {"title": "A minute for your diary?", "body": "Nothing in My Day today yet.", "url": "/#/", "tag": "myday-reminder"}

    def delivered_and_shown():
        # The page's one registration is the profile's first; a worker stopped meanwhile may drop a push, so it is
        # sent again until shown (its tag keeps one notification)
        for registration in ("0", "1", "2"):
            driver.execute_cdp_cmd("ServiceWorker.deliverPushMessage",
                                   {"origin": server.url + "/", "registrationId": registration, "data": json.dumps(message)})
        return driver.execute_async_script(
            "navigator.serviceWorker.ready.then((r) => r.getNotifications())"
            ".then((all) => arguments[0](all.map((n) => [n.title, n.body, n.tag, n.data.url])))") or None

    shown = poll(delivered_and_shown, every=0.5, message="the pushed reminder was not shown")
    assert shown == [[message["title"], message["body"], message["tag"], "/#/"]], shown


def test_the_gentle_question_is_off_until_turned_on_and_put_away_for_the_day(server, browser):
    driver = browser
    register(driver, server)
    # Given yesterday's entry about something ahead
    in_page(driver, """
        const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
        const at = new Date(Date.now() - 86400000);
        await api.call('POST', '/v1/entries', { id: crypto.randomUUID(), created_at: at.toISOString(), tz: zone, duration_s: 0,
                                                kind: 'text', text: 'Nervous: the flight to Lisbon is tomorrow.' });
        return true;""")
    # Home asks nothing while the question is off
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".home"), message="no Home")
    assert driver.find_element(By.CSS_SELECTOR, ".home [data-slot=question]").get_attribute("hidden") is not None
    # Turned on in Profile, Home asks about it in the person's words
    click(driver, "[aria-label=Profile]")
    toggle = driver.find_element(By.CSS_SELECTOR, "[data-action=question-on]")
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    driver.get(server.url + "/#/")
    driver.refresh()
    wait(driver, lambda d: "you mentioned “flight to Lisbon”" in text_of(d, ".home [data-slot=question]"),
         message="the question did not show")
    assert_accessible(driver)
    # "Not today" puts it away, also after a reload
    driver.find_element(By.CSS_SELECTOR, "[data-action=dismiss-question]").click()
    assert driver.find_element(By.CSS_SELECTOR, ".home [data-slot=question]").get_attribute("hidden") is not None
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".home .on-this-day"), message="no Home")
    assert driver.find_element(By.CSS_SELECTOR, ".home [data-slot=question]").get_attribute("hidden") is not None


def test_a_deleted_entry_is_undone_or_brought_back_from_recently_deleted(server, browser):
    driver = browser
    register(driver, server)
    type_entry(driver, "Lunch with Siobhan by the harbour.")
    type_entry(driver, "A quiet evening at home.")
    poll(lambda: len(server_entries(server, driver)) == 2, message="the entries did not reach the server")
    click(driver, "[aria-label=Library]")

    # When an entry is deleted, nothing asks: it leaves the Library and the server's lists, and Undo is offered
    def open_harbour(d):
        try:
            d.find_element(By.XPATH, "//*[contains(@class, 'entry') and contains(., 'harbour')]").click()
            return True
        except (NoSuchElementException, StaleElementReferenceException):
            return False
    wait(driver, open_harbour, message="could not open the entry about the harbour")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-action=delete]"))
    driver.find_element(By.CSS_SELECTOR, "[data-action=delete]").click()
    wait(driver, lambda d: d.current_url.endswith("#/library"))
    wait(driver, lambda d: d.find_element(By.ID, "undo").is_displayed(), message="no Undo was offered")
    assert "Recently deleted" in text_of(driver, "#undo")
    poll(lambda: ["harbour" not in e.get("transcript_clean", "") for e in server_entries(server, driver)] == [True],
         message="the entry is still in the server's list")
    wait(driver, lambda d: "harbour" not in text_of(d, "[data-slot=list]"), message="the Library still shows it")
    assert_accessible(driver)
    # When Undo is pressed, it is back, on the server and in the Library
    click(driver, "#undo [data-action=undo]")
    poll(lambda: len(server_entries(server, driver)) == 2, message="Undo did not bring it back on the server")
    wait(driver, lambda d: "harbour" in page_text(d), message="Undo did not open the entry again")
    assert not driver.find_element(By.ID, "undo").is_displayed()

    # When it is deleted again and the Undo is let go (another screen), Recently deleted still has it
    driver.find_element(By.CSS_SELECTOR, "[data-action=delete]").click()
    wait(driver, lambda d: d.find_element(By.ID, "undo").is_displayed(), message="no Undo was offered")
    click(driver, ".recently-deleted-link")
    wait(driver, lambda d: d.current_url.endswith("#/deleted"))
    wait(driver, lambda d: not d.find_element(By.ID, "undo").is_displayed(), message="Undo outlived its screen")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".deleted-entry"), message="Recently deleted is empty")
    row = text_of(driver, ".deleted-entry")
    assert "harbour" in row and "Deleted for good in 29 days" in row, row
    assert_accessible(driver)
    look(driver, "recently-deleted")
    # And Bring back returns it to the Library
    click(driver, ".deleted-entry [data-action=restore]")
    wait(driver, lambda d: "Brought back" in text_of(d, "[data-slot=notice]"), message="no word that it came back")
    assert not driver.find_elements(By.CSS_SELECTOR, ".deleted-entry")
    poll(lambda: len(server_entries(server, driver)) == 2, message="Bring back did not reach the server")
    click(driver, "[data-action=back]")
    wait(driver, lambda d: "harbour" in text_of(d, "[data-slot=list]"), message="the Library did not get it back")

    # When deleted once more, Delete now asks once, then deletes it for good
    in_page(driver, """
        const hit = (await api.call('GET', '/v1/entries')).entries.find((e) => e.transcript_clean.includes('harbour'));
        await api.call('DELETE', `/v1/entries/${hit.id}`);""")
    driver.get(server.url + "/#/deleted")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".deleted-entry [data-action=erase]"))
    click(driver, ".deleted-entry [data-action=erase]")
    wait(driver, lambda d: text_of(d, ".deleted-entry [data-action=erase]") == "Delete for good?")
    assert driver.find_elements(By.CSS_SELECTOR, ".deleted-entry")
    click(driver, ".deleted-entry [data-action=erase]")
    wait(driver, lambda d: "Deleted for good" in text_of(d, "[data-slot=notice]"), message="no word that it went for good")
    assert in_page(driver, "return (await api.call('GET', '/v1/recently-deleted')).entries.length") == 0
    assert driver.find_element(By.CSS_SELECTOR, "[data-slot=empty]").is_displayed()


def test_the_address_is_changed_by_the_link_mailed_to_the_new_one(browser):
    driver = browser
    with mailing_server() as server:
        # Given an account signed in just now
        email = register(driver, server)
        new = "new-" + email
        click(driver, "[aria-label=Profile]")
        form = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-form=email]"))
        assert email in text_of(driver, "[data-slot=email-now]")
        # A bad address, the same address and a wrong password are refused next to their fields, changing nothing
        form.find_element(By.NAME, "email").send_keys("not an address")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(driver, lambda d: text_of(d, "[data-slot=email-error]") != "", message="a bad address was not refused")
        assert form.find_element(By.NAME, "email").get_attribute("aria-invalid") == "true"
        form.find_element(By.NAME, "email").clear()
        form.find_element(By.NAME, "email").send_keys(new)
        form.find_element(By.NAME, "password").send_keys("not my password")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(driver, lambda d: "wrong" in text_of(d, "[data-slot=email-password-error]"), message="a wrong password was not refused")
        assert mails(server, "Confirm your new address") == []
        assert_accessible(driver)
        # When the right password is given, a link goes to the new address and the Profile says so
        form.find_element(By.NAME, "password").clear()
        form.find_element(By.NAME, "password").send_keys(PASSWORD)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait(driver, lambda d: new in text_of(d, "[data-slot=email-status]"), message="no word of the link")
        link = mailed_link(server, "Confirm your new address", "verify")
        assert f"To: {new}" in mails(server, "Confirm your new address")[-1]
        # When the link is opened, the address is the new one, and the old one is told
        driver.get(link)
        wait(driver, lambda d: f"{new} is confirmed" in d.find_element(By.CSS_SELECTOR, "[data-slot=status]").text,
             message="the link did not change the address")
        told = poll(lambda: (mails(server, "Your My Day address was changed") or [None])[-1], message="the old address was not told")
        assert f"To: {email}" in told and new in told
        driver.get(server.url + "/#/profile")
        wait(driver, lambda d: new in text_of(d, "[data-slot=email-now]"), message="the Profile shows the old address")


def test_a_request_that_meets_the_ended_session_during_a_password_change_does_not_sign_this_browser_out(server, browser):
    driver = browser
    register(driver, server)
    click(driver, "[aria-label=Profile]")
    form = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "[data-form=password]"))
    # Given a request that meets the ended session (as the change feed does) before this browser has signed in again:
    # the new sign-in is held until that request has been refused
    driver.execute_script("""
        const original = window.fetch;
        let met;
        const metTheEndedSession = new Promise((resolve) => (met = resolve));
        window.refreshes = [];
        window.fetch = async (input, init) => {
          const url = String(input.url ?? input);
          if (url.endsWith('/v1/auth/web/login')) await metTheEndedSession;
          const response = await original(input, init);
          if (url.endsWith('/v1/me/password') && response.ok) {
            window.endedRequest = import('/app/api.js').then((api) => api.call('GET', '/v1/me'))
              .then(() => 'answered', (error) => String(error));
          }
          if (url.endsWith('/v1/me') && response.status === 401) met();
          if (url.endsWith('/v1/auth/web/refresh')) window.refreshes.push(response.status);
          return response;
        };""")
    # When the password is changed
    form.find_element(By.NAME, "current").send_keys(PASSWORD)
    form.find_element(By.NAME, "next").send_keys("a brand new diary password")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    # Then this browser stays signed in, and the request waited for the new sign-in and was answered: its refresh was
    # never sent with the old cookie (refused, with the cookie cleared), and still is signed in after a reload
    wait(driver, lambda d: "this one stays signed in" in text_of(d, "[data-slot=password-status]"), message="signed out here")
    ended = driver.execute_async_script("const done = arguments[0]; window.endedRequest.then(done);")
    assert ended == "answered", ended
    assert 401 not in driver.execute_script("return window.refreshes"), driver.execute_script("return window.refreshes")
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=password]"), message="signed out after a reload")


def test_recordings_are_imported_at_the_time_they_were_recorded_and_only_once(server, browser):
    driver = browser
    register(driver, server)
    # Given a recording whose time is in its container, one whose time is in its name, a damaged one and a text file
    folder = tempfile.mkdtemp(prefix="myday-import-")
    files = [os.path.join(folder, name) for name in ["Walk.m4a", "20260314 073000.mp3", "Damaged.m4a", "notes.txt"]]
    tone = ["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=duration=1"]
    subprocess.run(tone + ["-metadata", "creation_time=2026-03-12T10:30:00Z", files[0]], check=True)
    subprocess.run(tone + [files[1]], check=True)
    with open(files[2], "wb") as damaged:
        damaged.write(bytes((index * 7) % 256 for index in range(4096)))
    with open(files[3], "w") as text:
        text.write("a shopping list")

    # When they are chosen in Import recordings, from the Library
    click(driver, "[aria-label=Library]")
    click(driver, ".import-link")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot=files-input]"), message="Import did not open")
    driver.find_element(By.CSS_SELECTOR, "[data-slot=files-input]").send_keys("\n".join(files))

    # Then two become entries of the moments they were recorded, each file says what became of it, and the damaged
    # file and the text file are named with the reason, leaving nothing behind
    def summary(d):
        return text_of(d, "[data-slot=summary]")
    wait(driver, lambda d: summary(d) == "2 imported, 0 already in your diary, 2 not imported.",
         message="the import did not end as expected: " + summary(driver))
    rows = {text_of(driver, f"li.import-row:nth-child({n}) .name"):
            " ".join(text_of(driver, f"li.import-row:nth-child({n}) .state").split()) for n in range(1, 5)}
    assert rows["Walk.m4a"].startswith("In your diary: ") and "2026" in rows["Walk.m4a"], rows
    assert rows["Damaged.m4a"].startswith("Not imported: The upload is not readable"), rows
    assert rows["notes.txt"].startswith("Not imported: Not an audio file"), rows
    entries = server_entries(server, driver)
    assert len(entries) == 2 and "2026-03-12T10:30:00.000Z" in [e["created_at"] for e in entries], entries
    # (the name's time is read in the entry's zone, which names its file)
    assert sorted(e["filename"][:19] for e in entries)[1] == "2026-03-14_07-30-00", [e["filename"] for e in entries]
    assert in_page(driver, "return (await db.all('outbox')).length") == 0
    assert_accessible(driver)
    look(driver, "import")

    # When the same files are chosen again, then nothing new is made
    driver.get(server.url + "/#/library")
    click(driver, ".import-link")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot=files-input]"), message="Import did not open")
    driver.find_element(By.CSS_SELECTOR, "[data-slot=files-input]").send_keys("\n".join(files[:2]))
    wait(driver, lambda d: summary(d) == "0 imported, 2 already in your diary, 0 not imported.",
         message="the second import did not end as expected: " + summary(driver))
    assert len(server_entries(server, driver)) == 2


def test_the_exported_archive_opens_offline_in_a_browser_from_its_folder(server, browser, speech):
    driver = browser
    register(driver, server)
    # Given a recording and two typed entries, exported
    spoken = SPOKEN.split()
    upload_with_words(driver, speech, [(word, 0.4 * index, 0.4 * index + 0.3) for index, word in enumerate(spoken)])
    type_entry(driver, "Lunch with Siobhan by the harbour.")
    type_entry(driver, "A quiet evening at home <with> the radio & tea.")
    poll(lambda: len([e for e in server_entries(server, driver) if e["status"] == "transcribed"]) == 3,
         message="the entries were not all ready")
    export = in_page(driver, """
        const today = new Date().toISOString().slice(0, 10);
        const asked = await api.call('POST', '/v1/exports', { from: today, to: today, tz: 'UTC' });
        for (;;) {
          const export_ = await api.call('GET', `/v1/exports/${asked.id}`);
          if (export_.status !== 'queued' && export_.status !== 'building') return export_;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }""")
    assert export["status"] == "ready", export
    folder = tempfile.mkdtemp(prefix="myday-archive-")
    with urllib.request.urlopen(export["download_url"], timeout=DEADLINE) as response:
        zipfile.ZipFile(io.BytesIO(response.read())).extractall(folder)

    # When its index.html is opened from the folder with the network off
    driver.set_network_conditions(offline=True, latency=0, download_throughput=0, upload_throughput=0)
    driver.get("file://" + os.path.join(folder, "index.html"))

    # Then it lists the day with its three entries, their words as typed (not read as markup)
    wait(driver, lambda d: text_of(d, "#count") == "3 entries on 1 day", message="the page did not list the entries")
    articles = driver.find_elements(By.CSS_SELECTOR, "article")
    assert len(articles) == 3 and len(driver.find_elements(By.CSS_SELECTOR, "section h2")) == 1
    assert any("A quiet evening at home <with> the radio & tea." in a.text for a in articles)
    # And the search box filters them
    driver.find_element(By.ID, "search").send_keys("harbour")
    wait(driver, lambda d: text_of(d, "#count") == "1 of 3 entries match")
    shown = [a for a in driver.find_elements(By.CSS_SELECTOR, "article") if a.is_displayed()]
    assert len(shown) == 1 and "Siobhan" in shown[0].text
    driver.find_element(By.ID, "search").clear()
    driver.find_element(By.ID, "search").send_keys(" ")
    wait(driver, lambda d: text_of(d, "#count") == "3 entries on 1 day")
    # And the recording plays from the file beside the page, and nothing was asked of any network
    played = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const audio = document.querySelector('audio');
        audio.muted = true;
        audio.play().then(() => done('playing'), (e) => done(String(e)));""")
    assert played == "playing", played
    wait(driver, lambda d: d.execute_script("return document.querySelector('audio').currentTime") > 0,
         message="the recording did not play")
    loaded = driver.execute_script("return performance.getEntriesByType('resource').map((e) => e.name)")
    assert all(name.startswith("file://") for name in loaded), loaded
    assert_accessible(driver)
    look(driver, "archive-index")


class GoogleStandIn:
    """Google's key set on loopback (`MYDAY_GOOGLE_JWKS_URL`), and ID tokens signed with its key as Google signs them."""

    client_id = "1234.apps.googleusercontent.com"

    def __init__(self):
        import base64
        import http.server
        import threading
        from cryptography.hazmat.primitives.asymmetric import rsa

        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        numbers = self.key.public_key().public_numbers()

        def b64(number):
            raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
            return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

        keys = json.dumps({"keys": [{"kty": "RSA", "kid": "stand-in", "alg": "RS256", "use": "sig",
                                     "n": b64(numbers.n), "e": b64(numbers.e)}]}).encode()

        class Keys(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(keys)))
                self.end_headers()
                self.wfile.write(keys)

            def log_message(self, *args):
                pass

        self.http = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Keys)
        threading.Thread(target=self.http.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/keys"

    def token(self, nonce, subject="google-person-1", email="google.person@example.com"):
        import base64
        import time as clock
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import padding

        def part(value):
            return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()

        now = int(clock.time())
        signed = part({"alg": "RS256", "kid": "stand-in", "typ": "JWT"}) + "." + part({
            "iss": "https://accounts.google.com", "aud": self.client_id, "sub": subject, "email": email,
            "email_verified": True, "iat": now, "exp": now + 3600, "nonce": nonce})
        signature = self.key.sign(signed.encode(), padding.PKCS1v15(), hashes.SHA256())
        return signed + "." + base64.urlsafe_b64encode(signature).rstrip(b"=").decode()

    def stop(self):
        self.http.shutdown()


# Google Identity Services in the page, as far as the web app uses it: `initialize` keeps its settings, `renderButton`
# draws a button that answers the token the test put in `window.googleToken`, with the nonce of that `initialize`.
FAKE_GOOGLE_IDENTITY_SERVICES = """
    const script = document.createElement('script');
    script.src = 'https://accounts.google.com/gsi/client';
    document.head.append(script);
    window.google = { accounts: { id: {
      initialize(settings) { window.googleSettings = settings; },
      renderButton(container) {
        const settings = window.googleSettings;
        const button = Object.assign(document.createElement('button'), { type: 'button', className: 'fake-google', textContent: 'Continue with Google' });
        button.addEventListener('click', () => settings.callback({ credential: window.googleToken }));
        container.append(button);
      },
    } } };"""


def test_an_account_that_signs_in_with_google_exports_and_closes_with_a_fresh_google_sign_in(browser):
    driver = browser
    google = GoogleStandIn()
    data = tempfile.mkdtemp(prefix="myday-web-")
    server = Server(data, MYDAY_GOOGLE_CLIENT_IDS=google.client_id, MYDAY_GOOGLE_JWKS_URL=google.url)
    try:
        # Given someone who signed in with Google (no password) more than five minutes ago, with an entry
        driver.get(server.url + "/")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"))
        signed_in = driver.execute_async_script(
            """const [token, done] = arguments;
            import('/app/api.js').then((api) => api.signInWithGoogle(token, 'first-nonce')).then(() => done('ok'), (e) => done(String(e)));""",
            google.token("first-nonce"))
        assert signed_in == "ok", signed_in
        in_page(driver, """
            await api.call('POST', '/v1/entries', { id: crypto.randomUUID(), created_at: new Date().toISOString(), tz: 'UTC',
                                                    duration_s: 0, kind: 'text', text: 'Signed in with Google.' });
            return true;""")
        with sqlite3.connect(os.path.join(data, "myday.sqlite")) as database:
            database.execute("UPDATE refresh_tokens SET created_at = created_at - 600000")
        # (a page load restores the session from its cookie: the access token then says when the sign-in was)
        driver.get(server.url + "/#/profile")
        driver.refresh()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=delete]"))
        driver.execute_script(FAKE_GOOGLE_IDENTITY_SERVICES)
        assert not driver.find_element(By.CSS_SELECTOR, "[data-form=delete] [name=password]").is_displayed()

        # When an export is asked for, then the server wants a fresh sign-in and Google is offered to give it
        driver.find_element(By.CSS_SELECTOR, "[data-form=export] button[type=submit]").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot=export-proof] .fake-google"),
             message="Confirm with Google was not offered for the export")
        assert "sign in again" in text_of(driver, "[data-slot=export-status]")
        # And a Google sign-in for another nonce is refused, then the right one makes the export
        driver.execute_script("window.googleToken = arguments[0]", google.token("not-the-pages-nonce"))
        click(driver, "[data-slot=export-proof] .fake-google")
        wait(driver, lambda d: "could not be verified" in text_of(d, "[data-slot=export-status]"),
             message="a token for another nonce was not refused")
        nonce = driver.execute_script("return window.googleSettings.nonce")
        driver.execute_script("window.googleToken = arguments[0]", google.token(nonce))
        click(driver, "[data-slot=export-proof] .fake-google")
        wait(driver, lambda d: "Ready: 1 entry." in text_of(d, "[data-slot=export-status]"), timeout=2 * DEADLINE,
             message="the export did not become ready after the Google sign-in")
        assert_accessible(driver)

        # When the account is closed, then the same fresh Google sign-in closes it, and nothing of it stays
        driver.refresh()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=delete]"))
        driver.execute_script(FAKE_GOOGLE_IDENTITY_SERVICES)
        driver.find_element(By.CSS_SELECTOR, "[data-form=delete] [name=confirm]").send_keys("DELETE")
        driver.find_element(By.CSS_SELECTOR, "[data-form=delete] button[type=submit]").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-slot=delete-proof] .fake-google"),
             message="Confirm with Google was not offered for closing the account")
        nonce = driver.execute_script("return window.googleSettings.nonce")
        driver.execute_script("window.googleToken = arguments[0]", google.token(nonce))
        click(driver, "[data-slot=delete-proof] .fake-google")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-form=signin]"), message="the account was not closed")
        with sqlite3.connect(os.path.join(data, "myday.sqlite")) as database:
            assert database.execute("SELECT COUNT(*) FROM users WHERE deleted_at IS NULL").fetchone()[0] == 0
    finally:
        server.stop()
        google.stop()
        shutil.rmtree(data, ignore_errors=True)


def test_a_screen_that_loads_slowly_never_covers_the_one_asked_for_after_it(server, browser):
    driver = browser
    register(driver, server)
    type_entry(driver, "A walk by the harbour.")
    entry_id = wait(driver, lambda d: server_entries(server, d), message="the entry never reached the server")[0]["id"]
    # Given Insights, whose answer is held until the test lets it go (and says when the page has read it)
    driver.execute_script("""
        const original = window.fetch;
        window.heldInsights = [];
        window.fetch = (path, init) => !String(path).includes('/v1/me/insights') ? original(path, init)
          : new Promise((resolve) => window.heldInsights.push(() => resolve(original(path, init).then((response) => {
              const text = response.text.bind(response);
              response.text = async () => {
                const value = await text();
                // After every step the page takes with the answer (promise steps, which run before any timer)
                setTimeout(() => { window.insightsRead = true; }, 0);
                return value;
              };
              return response;
            }))));""")
    # When the person opens Insights, and before it has loaded, an entry
    driver.execute_script("location.hash = '#/insights'")
    wait(driver, lambda d: d.execute_script("return window.heldInsights.length") == 1, message="Insights never asked")
    driver.execute_script(f"location.hash = '#/entry/{entry_id}'")
    wait(driver, lambda d: "harbour" in text_of(d, "[data-slot=transcript]"), message="the entry did not open")
    # And then Insights answers after all
    driver.execute_script("window.heldInsights.forEach((answer) => answer())")
    wait(driver, lambda d: d.execute_script("return window.insightsRead === true"), message="Insights never answered")
    # Then the entry is still what shows
    assert "harbour" in text_of(driver, "[data-slot=transcript]")
    assert not driver.find_elements(By.CSS_SELECTOR, "main .insights")
