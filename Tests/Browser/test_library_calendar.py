"""The Library's month calendar in headless Chromium: the days with entries marked (in each entry's own time zone, as
the list groups them), with how many and the day's mood, today marked, months stepped through, a day opened, and
"Go to a date" opening a day or naming the nearest days with entries; at phone, 320 px and desktop sizes, light and
dark. Every wait is on a condition with a deadline."""
import json

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_web_app import assert_accessible, click, in_page, look, register, text_of, wait

# Entries on fixed days: two on 1 March 2025 (moods 4 and 5: the day's mood is their mean, rounded half up, 5), one
# made at 02:30 UTC on 15 March 2025 in New York (so on 14 March there, with mood 2), one on 27 February 2025, one today.
ENTRIES = [
    ("2025-02-27T10:00:00Z", "Europe/Dublin", "Bought seeds for the allotment.", None),
    ("2025-03-01T09:00:00Z", "Europe/Dublin", "Breakfast with Siobhan by the harbour.", 4),
    ("2025-03-01T18:00:00Z", "Europe/Dublin", "A wonderful evening of music.", 5),
    ("2025-03-15T02:30:00Z", "America/New_York", "A late, tired evening in New York.", 2),
]


def make_entries(driver):
    """Makes ENTRIES and one entry of now in the browser's zone, syncs them into the browser; answers today's date."""
    made = in_page(driver, """
        const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
        const now = new Date();
        const entries = %s.concat([[now.toISOString(), zone, 'Typed this today.', null]]);
        for (const [at, tz, text, mood] of entries) {
          const id = crypto.randomUUID();
          await api.call('POST', '/v1/entries', { id, created_at: at, tz, duration_s: 0, kind: 'text', text });
          if (mood) await api.call('PATCH', `/v1/entries/${id}`, { mood });
        }
        await sync.sync();
        return new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(now);""" % json.dumps(ENTRIES))
    assert isinstance(made, str) and len(made) == 10, made
    return made


def open_calendar(driver):
    click(driver, "[aria-label=Library]")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".library .entry"), message="the Library listed nothing")
    toggle = driver.find_element(By.CSS_SELECTOR, "[data-action=calendar]")
    assert toggle.get_attribute("aria-expanded") == "false"
    toggle.click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".calendar td[data-date]"), message="the calendar did not open")
    assert toggle.get_attribute("aria-expanded") == "true"


def shown(driver):
    """The calendar as drawn (None while another screen shows): its month, every day's date, today's date, and the
    marked days as {date: [entries, mood, accessible name, visible tally, pips on]}."""
    return driver.execute_script("""
        const root = document.querySelector('main .calendar');
        if (!root) return null;
        return {
          month: root.querySelector('[data-slot=month]').textContent,
          days: [...root.querySelectorAll('td[data-date]')].map((td) => td.dataset.date),
          today: root.querySelector('td[aria-current=date]')?.dataset.date ?? null,
          marked: Object.fromEntries([...root.querySelectorAll('td a.marked')].map((a) => [a.dataset.date, [
            Number(a.dataset.entries), a.dataset.mood ? Number(a.dataset.mood) : null, a.getAttribute('aria-label'),
            a.querySelector('.tally')?.textContent ?? null, a.querySelectorAll('.pip.on').length]])),
        };""")


def words(driver, key, options):
    """A day (YYYY-MM-DD) as the browser words it with Intl options."""
    return driver.execute_script(
        "return new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', ...arguments[1] }).format(new Date(arguments[0] + 'T12:00:00Z'))",
        key, options)


def month_name(driver, key):
    return words(driver, key, {"month": "long", "year": "numeric"})


def wait_for_month(driver, key):
    name = month_name(driver, key)
    def showing(d):
        drawn = shown(d)
        return drawn if drawn and drawn["month"] == name else None
    return wait(driver, showing, message=f"the calendar does not show {name}")


def jump(driver, key):
    """Goes to a date with the calendar's date field and its Go button."""
    field = driver.find_element(By.CSS_SELECTOR, ".calendar [name=date]")
    driver.execute_script("arguments[0].value = arguments[1]", field, key)
    driver.find_element(By.CSS_SELECTOR, ".calendar [data-form=jump] button[type=submit]").click()


def assert_columns_are_weekdays(driver):
    """Seven weekdays head the columns, and each day stands under its own weekday."""
    columns = driver.execute_script("""
        const named = (date, weekday) => new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', weekday }).format(date);
        const days = [...document.querySelectorAll('.calendar td[data-date]')].map((td) =>
          [td.cellIndex, named(new Date(td.dataset.date + 'T12:00:00Z'), 'long')]);
        return { headers: [...document.querySelectorAll('.calendar thead th .visually-hidden')].map((s) => s.textContent), days };""")
    headers = columns["headers"]
    assert len(headers) == 7 and len(set(headers)) == 7, headers
    for index, weekday in columns["days"]:
        assert headers[index] == weekday, (index, weekday, headers)


def wait_for_day_page(driver, key, said):
    """Waits until the day page of `key` lists an entry that says `said`."""
    def shows(d):
        listed = d.find_elements(By.CSS_SELECTOR, ".day-page .entries")
        return d.current_url.endswith(f"#/day/{key}") and listed and said in listed[0].text
    wait(driver, shows, message=f"the day page of {key} did not open")


def no_sideways_scroll(driver, where):
    width = driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"{where} scrolls sideways: {width}"


def accessible_light_and_dark(driver):
    for scheme in ("light", "dark"):
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        assert_accessible(driver)
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_the_calendar_marks_the_days_with_entries_and_opens_them(server, browser):
    driver = browser
    register(driver, server)
    today = make_entries(driver)
    open_calendar(driver)

    # This month shows first, today marked, with today's entry
    now = wait_for_month(driver, today)
    assert now["today"] == today
    assert list(now["marked"]) == [today], now["marked"]
    assert now["marked"][today][2] == words(driver, today, {"weekday": "long", "month": "long", "day": "numeric"}) + ", today, 1 entry"
    assert_columns_are_weekdays(driver)

    # A date with no entries: its month shows, with the days of March 2025 that have entries, each with how many and
    # the day's mood; the 15th (the New York entry's day in UTC) is not marked
    jump(driver, "2025-03-03")
    march = wait_for_month(driver, "2025-03-03")
    assert march["days"][0] == "2025-03-01" and march["days"][-1] == "2025-03-31" and len(march["days"]) == 31
    assert march["today"] is None
    assert sorted(march["marked"]) == ["2025-03-01", "2025-03-14"], march["marked"]
    first = words(driver, "2025-03-01", {"weekday": "long", "month": "long", "day": "numeric"})
    assert march["marked"]["2025-03-01"] == [2, 5, f"{first}, 2 entries, mood 5 of 5", "2", 5]
    fourteenth = words(driver, "2025-03-14", {"weekday": "long", "month": "long", "day": "numeric"})
    assert march["marked"]["2025-03-14"] == [1, 2, f"{fourteenth}, 1 entry, mood 2 of 5", None, 2]
    assert_columns_are_weekdays(driver)
    # ... and says so, with the nearest days with entries before and after
    wait(driver, lambda d: text_of(d, ".calendar [data-slot=jumped]"), message="the date jump said nothing")
    said = text_of(driver, ".calendar [data-slot=jumped]")
    assert said.startswith(f"No entries on {words(driver, '2025-03-03', {'dateStyle': 'long'})}."), said
    nearest = driver.execute_script(
        "return [...document.querySelectorAll('.calendar [data-slot=jumped] a')].map((a) => [a.getAttribute('href'), a.textContent])")
    assert nearest == [["#/day/2025-03-01", words(driver, "2025-03-01", {"dateStyle": "full"})],
                       ["#/day/2025-03-14", words(driver, "2025-03-14", {"dateStyle": "full"})]], nearest
    assert "Nearest before" in said and "Nearest after" in said
    assert driver.find_elements(By.CSS_SELECTOR, ".calendar td.chosen[data-date='2025-03-03']")
    driver.execute_script("document.querySelector('.calendar').scrollIntoView()")
    no_sideways_scroll(driver, "the calendar at 390 px")
    look(driver, "library-calendar")
    accessible_light_and_dark(driver)

    # The month before and after
    click(driver, ".calendar [data-action=previous]")
    february = wait_for_month(driver, "2025-02-01")
    assert list(february["marked"]) == ["2025-02-27"] and february["marked"]["2025-02-27"][1] is None, february["marked"]
    assert len(february["days"]) == 28
    click(driver, ".calendar [data-action=next]")
    click(driver, ".calendar [data-action=next]")
    assert wait_for_month(driver, "2025-04-01")["marked"] == {}
    click(driver, ".calendar [data-action=previous]")
    wait_for_month(driver, "2025-03-01")

    # A marked day opens its day page from the keyboard, whose mood is the calendar's
    driver.find_element(By.CSS_SELECTOR, ".calendar [data-action=next]").send_keys(Keys.TAB)
    focused = driver.switch_to.active_element
    assert focused.get_attribute("data-date") == "2025-03-01", focused.get_attribute("outerHTML")
    focused.send_keys(Keys.ENTER)
    wait_for_day_page(driver, "2025-03-01", "Breakfast with Siobhan")
    assert text_of(driver, ".day-page [data-slot=meta]").startswith("2 entries · mood 5 of 5")
    assert "A wonderful evening" in text_of(driver, ".day-page .entries")
    # An entry opened from the day page leads back to it
    click(driver, ".day-page .entries li:first-child .entry")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".detail"), message="the day's entry did not open")
    assert text_of(driver, ".detail [data-action=back]") == "← The day"
    click(driver, ".detail [data-action=back]")
    wait_for_day_page(driver, "2025-03-01", "Breakfast with Siobhan")

    # Back in the Library, the calendar is open on the same month; a date with entries opens its day at once
    click(driver, ".day-page [data-action=back]")
    wait_for_month(driver, "2025-03-01")
    jump(driver, "2025-03-14")
    wait_for_day_page(driver, "2025-03-14", "A late, tired evening")
    assert text_of(driver, ".day-page [data-slot=meta]").startswith("1 entry · mood 2 of 5")

    # A date before every entry names only the nearest after, which opens its day
    click(driver, ".day-page [data-action=back]")
    wait_for_month(driver, "2025-03-14")
    jump(driver, "2020-01-01")
    wait_for_month(driver, "2020-01-01")
    wait(driver, lambda d: text_of(d, ".calendar [data-slot=jumped]").startswith("No entries on"), message="no message")
    assert "Nearest before" not in text_of(driver, ".calendar [data-slot=jumped]")
    click(driver, ".calendar [data-slot=jumped] a")
    wait_for_day_page(driver, "2025-02-27", "Bought seeds")

    # The week starts where the locale says (Monday when the browser cannot tell), and a day's mood is rounded half up
    rules = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/app/views/calendar.js').then((c) => done([c.weekStart('en-GB'), c.weekStart('en-US'), c.dayMood([1, 2]),
          c.dayMood([3, 4, 4]), c.dayMood([]), c.shiftMonth('2025-01', -1), c.shiftMonth('2025-12', 1)]));""")
    assert rules == [1, 0, 2, 4, None, "2024-12", "2026-01"], rules


def test_the_calendar_fits_a_320_px_phone_and_a_desktop_and_works_offline(server, browser):
    driver = browser
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 320, "height": 640, "deviceScaleFactor": 1, "mobile": False})
    driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 24, "fixed": 20}})
    # A phone's scrollbars take no width
    driver.execute_cdp_cmd("Emulation.setScrollbarsHidden", {"hidden": True})
    register(driver, server)
    today = make_entries(driver)
    open_calendar(driver)
    wait_for_month(driver, today)
    jump(driver, "2025-03-03")
    wait_for_month(driver, "2025-03-03")

    # At 320 px with a large font the whole month fits, every column and day a 44 px target, and nothing scrolls sideways
    assert driver.execute_script("return document.documentElement.clientWidth") == 320
    no_sideways_scroll(driver, "the Library with its calendar at 320 px")
    sizes = driver.execute_script("""
        const box = (e) => { const r = e.getBoundingClientRect(); return [r.width, r.height, r.right]; };
        return { columns: [...document.querySelectorAll('.calendar thead th')].map(box),
                 days: [...document.querySelectorAll('.calendar a.marked')].map(box),
                 scroller: [document.querySelector('.calendar .table-scroll').scrollWidth, document.querySelector('.calendar .table-scroll').clientWidth] };""")
    assert all(width >= 44 for width, _, _ in sizes["columns"]), sizes
    assert all(width >= 44 and height >= 44 and right <= 320 for width, height, right in sizes["days"]), sizes
    assert sizes["scroller"][0] <= sizes["scroller"][1], sizes
    accessible_light_and_dark(driver)
    driver.execute_script("document.querySelector('.calendar').scrollIntoView()")
    look(driver, "library-calendar-320")
    # A desktop browser's scrollbar leaves less than seven 44 px columns at 320 px: the grid scrolls in its own box
    driver.execute_cdp_cmd("Emulation.setScrollbarsHidden", {"hidden": False})
    driver.refresh()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".calendar a.marked"), message="the calendar did not open again")
    wait(driver, lambda d: d.execute_script("return document.documentElement.clientWidth") < 320, message="no scrollbar")
    no_sideways_scroll(driver, "the Library with its calendar at 320 px with a scrollbar")

    # On a desktop it is the Library's width, still seven columns
    driver.execute_cdp_cmd("Page.setFontSizes", {"fontSizes": {"standard": 16, "fixed": 13}})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    wait(driver, lambda d: d.execute_script("return innerWidth") == 1280)
    no_sideways_scroll(driver, "the Library with its calendar on a desktop")
    assert len(driver.find_elements(By.CSS_SELECTOR, ".calendar thead th")) == 7
    accessible_light_and_dark(driver)
    driver.execute_script("scrollTo(0, 0)")
    look(driver, "library-calendar-desktop")

    # Offline, it is drawn from what this browser has
    server.stop()
    click(driver, ".library [data-action=refresh]")
    wait(driver, lambda d: "You are offline" in text_of(d, ".library [data-slot=notice]"), message="the Library does not say it is offline")
    jump(driver, "2025-03-03")
    assert sorted(wait_for_month(driver, "2025-03-01")["marked"]) == ["2025-03-01", "2025-03-14"]
    wait(driver, lambda d: text_of(d, ".calendar [data-slot=jumped]").startswith("No entries on"), message="no message offline")
    click(driver, ".calendar [data-action=previous]")
    assert list(wait_for_month(driver, "2025-02-01")["marked"]) == ["2025-02-27"]
