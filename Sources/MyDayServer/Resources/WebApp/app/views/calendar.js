import * as sync from "../sync.js";
import * as uploads from "../uploads.js";
import { announce, counted, el, fromTemplate, localDay } from "../ui.js";

const OPEN = "myday.calendar.open";

/** The day's mood as the day page gives it: the mean of its entries' moods, rounded half up; null for none. */
export function dayMood(moods) {
  return moods.length === 0 ? null : Math.round(moods.reduce((sum, mood) => sum + mood, 0) / moods.length);
}

/** Each day with entries (YYYY-MM-DD in each entry's own time zone, as the Library groups them) → { count, mood }. */
export function diaryDays(entries) {
  const found = new Map();
  for (const entry of entries) {
    const key = localDay(new Date(entry.created_at), entry.tz || undefined);
    const day = found.get(key) ?? { count: 0, moods: [] };
    day.count++;
    if (entry.mood) day.moods.push(entry.mood);
    found.set(key, day);
  }
  return new Map([...found].map(([key, { count, moods }]) => [key, { count, mood: dayMood(moods) }]));
}

/** The first day of the week (0 Sunday … 6 Saturday) where the browser's locale is; Monday when it cannot say. */
export function weekStart(locale = new Intl.DateTimeFormat().resolvedOptions().locale) {
  try {
    const about = new Intl.Locale(locale);
    const first = (about.getWeekInfo?.() ?? about.weekInfo)?.firstDay;
    if (first) return first % 7;
  } catch {
    // An engine without week information: Monday.
  }
  return 1;
}

/** Noon UTC of a calendar day, which names that day in every zone (years below 100 too). */
function noon(year, month, day) {
  const date = new Date(Date.UTC(2000, 0, 1, 12));
  date.setUTCFullYear(year, month - 1, day);
  return date;
}

const pad = (number, width = 2) => String(number).padStart(width, "0");
const keyOf = (year, month, day) => `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
const parse = (key) => key.split("-").map(Number);

/** "YYYY-MM" moved by `by` months. */
export function shiftMonth(month, by) {
  const [year, number] = parse(month);
  const total = year * 12 + number - 1 + by;
  return `${pad(Math.floor(total / 12), 4)}-${pad((total % 12) + 1)}`;
}

/** The weeks of a month, each seven days (YYYY-MM-DD, or null outside the month), from `firstDay` on. */
export function weeksOf(month, firstDay) {
  const [year, number] = parse(month);
  const length = noon(year, number + 1, 0).getUTCDate();
  const cells = Array((noon(year, number, 1).getUTCDay() - firstDay + 7) % 7).fill(null);
  for (let day = 1; day <= length; day++) cells.push(keyOf(year, number, day));
  while (cells.length % 7) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, week) => cells.slice(week * 7, week * 7 + 7));
}

/** A day (YYYY-MM-DD) in words, in the browser's language. */
export function spoken(key, options = { dateStyle: "long" }) {
  return new Intl.DateTimeFormat(undefined, { timeZone: "UTC", ...options }).format(noon(...parse(key)));
}

/** The nearest days with entries before and after `key` (or null), from the days' keys. */
export function nearest(keys, key) {
  let before = null;
  let after = null;
  for (const other of keys) {
    if (other < key && (!before || other > before)) before = other;
    if (other > key && (!after || other < after)) after = other;
  }
  return { before, after };
}

const dayHref = (key) => `#/day/${key}`;

/**
 * The Library's month calendar: the days with entries circled (how many, and the day's mood), today marked; a day with
 * entries opens its day page. "Go to a date" shows that date's month and opens the day, or names the nearest days with
 * entries. Drawn from what this device has (synced entries and those waiting to upload), so it works offline.
 */
export function calendarView({ toggle }) {
  const view = fromTemplate("calendar-template");
  const heading = view.slot("month");
  const weeks = view.slot("weeks");
  const jumped = view.slot("jumped");
  const jump = view.form("jump");
  let month = localDay(new Date(), uploads.timeZone()).slice(0, 7);
  let days = new Map();
  let chosen = null;
  let sequence = 0;
  let drawn = "";

  function show(open) {
    view.root.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (open) localStorage.setItem(OPEN, "yes");
    else localStorage.removeItem(OPEN);
  }

  /** Reads the device's entries again and redraws; nothing while the calendar is closed. */
  async function refresh() {
    if (view.root.hidden) return;
    const mine = ++sequence;
    const waiting = await uploads.pendingEntries();
    const synced = await sync.entries();
    if (mine !== sequence) return;
    const known = new Set(synced.map((entry) => entry.id));
    days = diaryDays([...waiting.filter((item) => !known.has(item.id)), ...synced]);
    draw();
  }

  /** Draws the month; drawn again only when something shown changed (a redraw under a finger would lose the tap). */
  function draw() {
    const first = weekStart();
    const today = localDay(new Date(), uploads.timeZone());
    const signature = JSON.stringify([month, first, today, chosen, [...days].filter(([key]) => key.startsWith(month))]);
    if (signature === drawn) return;
    drawn = signature;
    const [year, number] = parse(month);
    heading.textContent = new Intl.DateTimeFormat(undefined, { timeZone: "UTC", month: "long", year: "numeric" }).format(noon(year, number, 1));
    const columns = Array.from({ length: 7 }, (_, column) => noon(2023, 1, 1 + ((first + column) % 7)));
    view.slot("weekdays").replaceChildren(...columns.map(weekdayHeader));
    const focused = weeks.contains(document.activeElement) ? document.activeElement.dataset.date : null;
    weeks.replaceChildren(...weeksOf(month, first).map((week) => {
      const row = el("tr");
      row.append(...week.map((key) => dayCell(key, today)));
      return row;
    }));
    if (focused) weeks.querySelector(`a[data-date="${focused}"]`)?.focus();
  }

  /** A column's weekday (1 January 2023 was a Sunday): its initial on a phone, short name wider, full name spoken. */
  function weekdayHeader(date) {
    const name = (weekday) => new Intl.DateTimeFormat(undefined, { timeZone: "UTC", weekday }).format(date);
    const header = el("th", { scope: "col" });
    header.append(
      el("span", { class: "narrow", "aria-hidden": "true" }, name("narrow")),
      el("span", { class: "short", "aria-hidden": "true" }, name("short")),
      el("span", { class: "visually-hidden" }, name("long")),
    );
    return header;
  }

  function dayCell(key, today) {
    const cell = el("td");
    if (!key) return cell;
    cell.dataset.date = key;
    const number = String(parse(key)[2]);
    const day = days.get(key);
    if (key === today) cell.setAttribute("aria-current", "date");
    if (key === chosen) cell.classList.add("chosen");
    if (!day) {
      cell.append(el("span", { class: "number" }, number));
      if (key === today) cell.append(el("span", { class: "visually-hidden" }, ", today"));
      return cell;
    }
    const parts = [spoken(key, { weekday: "long", month: "long", day: "numeric" })];
    if (key === today) parts.push("today");
    parts.push(counted(day.count, "entry", "entries"));
    if (day.mood) parts.push(`mood ${day.mood} of 5`);
    const link = el("a", { href: dayHref(key), class: "marked", "data-date": key, "data-entries": day.count, "aria-label": parts.join(", ") });
    if (day.mood) link.dataset.mood = day.mood;
    if (key === today) link.setAttribute("aria-current", "date");
    link.append(el("span", { class: "number", "aria-hidden": "true" }, number));
    if (day.count > 1) link.append(el("span", { class: "tally", "aria-hidden": "true" }, String(day.count)));
    if (day.mood) {
      const pips = el("span", { class: "pips", "aria-hidden": "true" });
      for (let pip = 1; pip <= 5; pip++) pips.append(el("span", { class: pip <= day.mood ? "pip on" : "pip" }));
      link.append(pips);
    }
    cell.append(link);
    return cell;
  }

  function step(by) {
    month = shiftMonth(month, by);
    draw();
    announce(heading.textContent);
  }

  /** Shows the month of `key`; opens the day when it has entries, else names the nearest days that have. */
  function goTo(key) {
    month = key.slice(0, 7);
    chosen = days.has(key) ? null : key;
    draw();
    if (days.has(key)) {
      jumped.replaceChildren();
      location.hash = dayHref(key);
      return;
    }
    const { before, after } = nearest(days.keys(), key);
    const lines = [el("p", {}, `No entries on ${spoken(key)}.`)];
    const near = (word, other) => {
      const line = el("p", { class: "near" }, `${word}: `);
      line.append(el("a", { href: dayHref(other), "data-date": other }, spoken(other, { dateStyle: "full" })));
      return line;
    };
    if (before) lines.push(near("Nearest before", before));
    if (after) lines.push(near("Nearest after", after));
    if (!before && !after) lines.push(el("p", {}, "No day has entries yet."));
    jumped.replaceChildren(...lines);
  }

  toggle.addEventListener("click", () => {
    show(view.root.hidden);
    refresh();
  });
  view.action("previous").addEventListener("click", () => step(-1));
  view.action("next").addEventListener("click", () => step(1));
  jump.addEventListener("submit", async (event) => {
    event.preventDefault();
    const key = jump.elements.date.value;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(key)) return;
    await refresh();
    goTo(key);
  });

  show(localStorage.getItem(OPEN) === "yes");
  return { root: view.root, refresh };
}
