import { call, isOffline } from "../api.js";
import * as search from "../search.js";
import * as sync from "../sync.js";
import * as uploads from "../uploads.js";
import { announce, chips, counted, duration, el, entryPill, fromTemplate, localDay } from "../ui.js";
import { calendarView } from "./calendar.js";

const OFFLINE = "You are offline: showing what is on this device.";
const OFFLINE_SEARCH = "You are offline: searching what is on this device.";
// Hits a page brings (the server's default); a redraw brings back as many as were shown, up to its limit.
const PAGE = 20;
const MOST = 100;

/**
 * Whether the entry holds every word of `query` (as prefixes of its words, phrases in a row, case and accents
 * aside) in its title, tags or clean transcript, as the device has it.
 */
export function matches(entry, query) {
  return search.entryMatches(entry, query);
}

/**
 * Library: entries by month and day (in each entry's time zone), newest first, with status pills, and a month calendar
 * of them. Searching shows the server's hits best first, each with its date, title and a snippet whose matched words
 * are marked, filters as removable chips, and more pages on demand; offline, the device's own copy searched by the
 * same rules.
 */
export function libraryView({ open }) {
  const view = fromTemplate("library-template");
  const list = view.slot("list");
  const error = view.slot("error");
  const searchBox = view.slot("search");
  const pull = view.slot("pull");
  const notice = view.slot("notice");
  const count = view.slot("count");
  const noMatches = view.slot("no-matches");
  const filterChips = view.slot("filter-chips");
  const panel = view.slot("filters");
  const toggle = view.action("filters");
  const moreButton = view.action("more");
  const calendar = calendarView({ toggle: view.action("calendar") });
  view.slot("calendar").replaceWith(calendar.root);

  let query = "";
  // A date phrase ("last week") is a filter unless the person took its chip off (then its words are words).
  let readDates = true;
  let dismissedDate = null;
  const filters = { tags: [], moods: [], kind: null, from: "", to: "" };
  // Each drawing has a number: an answer that comes back after a newer one was asked for is dropped.
  let sequence = 0;
  let stale = 0;
  // The search shown: its hits' ids, where the next page starts, how many came from the pages so far.
  let shown = null;
  let loadingMore = false;
  let redrawAfterMore = false;
  // How many times the person asked for more; a redraw begun before such a page is dropped, not drawn over it.
  let moreAsked = 0;
  // A search the person asked for is under way: a redraw that overtakes it speaks for it.
  let personWaiting = false;
  // The filter chip to focus once the chips are drawn again (after a tag was added from a hit).
  let focusAfterDrawing = null;

  function searching() {
    return Boolean(query || filters.tags.length || filters.moods.length || filters.kind || filters.from || filters.to);
  }

  function dropped() {
    view.root.dataset.staleAnswers = String(++stale);
  }

  function parameters(cursor, limit) {
    return {
      q: query, tz: uploads.timeZone(), readDates, tags: filters.tags, moods: filters.moods, kind: filters.kind,
      from: filters.from || null, to: filters.to || null, cursor, limit,
    };
  }

  function searchPath({ q, tz, readDates: dates, tags, moods, kind, from, to, cursor, limit }) {
    const params = new URLSearchParams({ q });
    if (tz) params.set("tz", tz);
    if (!dates) params.set("read_dates", "false");
    for (const tag of tags) params.append("tag", tag);
    for (const mood of moods) params.append("mood", String(mood));
    if (kind) params.set("kind", kind);
    if (from) params.set("from", from);
    if (to) params.set("to", to);
    if (cursor) params.set("cursor", cursor);
    params.set("limit", String(limit));
    return `/v1/search?${params}`;
  }

  /**
   * A page of hits: the server's; offline, the device's copy searched here (`served` hits already shown from
   * earlier pages). First pages lead with what still waits to upload and matches.
   */
  async function find({ cursor = null, served = 0, limit = PAGE, fromDevice = false, waiting }) {
    const asked = parameters(cursor, limit);
    if (!fromDevice) {
      try {
        const page = await call("GET", searchPath(asked));
        page.served = page.hits.length;
        if (!cursor) {
          const known = new Set(page.hits.map((hit) => hit.entry.id));
          const own = search.searchEntries(waiting.filter((item) => !known.has(item.id)), { ...asked, cursor: null, limit: MOST });
          page.hits = [...own.hits, ...page.hits];
        }
        return { ...page, offline: false };
      } catch (failure) {
        if (!isOffline(failure)) throw failure;
      }
    }
    const synced = await sync.entries();
    const known = new Set(synced.map((entry) => entry.id));
    const device = [...waiting.filter((item) => !known.has(item.id)), ...synced];
    const page = search.searchEntries(device, { ...asked, cursor: String(served) });
    return { ...page, served: page.hits.length, offline: true };
  }

  /** Draws the Library: every entry by day, or the hits of the search. `person`: the person asked (say what came). */
  async function render({ person = false } = {}) {
    // A redraw nobody asked for waits for a page the person asked for, then keeps it.
    if (!person && loadingMore) {
      redrawAfterMore = true;
      return;
    }
    const mine = ++sequence;
    const askedBefore = moreAsked;
    if (person) personWaiting = true;
    person ||= personWaiting;
    const current = () => mine === sequence && (person || askedBefore === moreAsked);
    calendar.refresh().catch((failure) => (error.textContent = failure.message));
    const waiting = await uploads.pendingEntries();
    if (!searching()) {
      let entries = await sync.entries();
      if (!current()) return dropped();
      personWaiting = false;
      shown = null;
      const known = new Set(entries.map((entry) => entry.id));
      entries = [...waiting.filter((item) => !known.has(item.id)), ...entries];
      entries.sort((a, b) => b.created_at.localeCompare(a.created_at));
      view.root.dataset.mode = "list";
      view.slot("empty").hidden = entries.length > 0;
      noMatches.hidden = true;
      count.textContent = "";
      moreButton.hidden = true;
      filterChips.replaceChildren();
      keepingFocus(() => list.replaceChildren(...groups(entries)));
      return;
    }
    // A redraw the person did not ask for (a sync, coming back from an entry) keeps as many hits as were shown.
    const limit = person || !shown ? PAGE : Math.min(MOST, Math.max(PAGE, shown.ids.size));
    let page;
    try {
      page = await find({ limit, waiting });
    } catch (failure) {
      if (!current()) return dropped();
      personWaiting = false;
      error.textContent = failure.message;
      shown = null;
      count.textContent = "";
      moreButton.hidden = true;
      list.replaceChildren();
      return;
    }
    if (!current()) return dropped();
    personWaiting = false;
    notice.textContent = page.offline ? OFFLINE_SEARCH : "";
    view.root.dataset.mode = "search";
    view.slot("empty").hidden = true;
    shown = { ids: new Set(), cursor: page.next_cursor ?? null, hasMore: page.has_more, served: page.served, offline: page.offline };
    const results = el("ol", { class: "entries hits", "aria-label": "Search results" });
    results.append(...page.hits.map((hit) => hitRow(hit, shown.ids)));
    keepingFocus(() => list.replaceChildren(...(page.hits.length > 0 ? [results] : [])));
    drawChips(page.interpreted);
    say(page.hits.length, person);
  }

  /** The count, or that nothing matched; to a screen reader too when the person asked. */
  function say(found, person) {
    const none = found === 0;
    noMatches.hidden = !none;
    noMatches.textContent = query ? `No matches for “${query}”.` : "No entries match these filters.";
    count.textContent = none ? "" : `${counted(found, "match", "matches")}${shown.hasMore ? " so far" : ""}`;
    moreButton.hidden = !shown.hasMore;
    if (person) announce(none ? noMatches.textContent : count.textContent);
  }

  async function more() {
    if (loadingMore || !shown?.hasMore) return;
    loadingMore = true;
    moreAsked++;
    const before = shown;
    let page;
    try {
      page = await find({ cursor: before.cursor, served: before.served, fromDevice: before.offline, waiting: await uploads.pendingEntries() });
    } catch (failure) {
      if (shown === before) error.textContent = failure.message;
      return;
    } finally {
      loadingMore = false;
      if (redrawAfterMore) {
        redrawAfterMore = false;
        queueMicrotask(() => render());
      }
    }
    // A search the person asked for meanwhile drew its own hits: this page belongs to the one before.
    if (shown !== before) return dropped();
    if (page.offline) notice.textContent = OFFLINE_SEARCH;
    const rows = page.hits.filter((hit) => !shown.ids.has(hit.entry.id)).map((hit) => hitRow(hit, shown.ids));
    shown.cursor = page.next_cursor ?? null;
    shown.hasMore = page.has_more;
    shown.served += page.served;
    shown.offline = page.offline;
    list.querySelector(".hits")?.append(...rows);
    say(shown.ids.size, false);
    announce(`${counted(rows.length, "more match", "more matches")}, ${count.textContent}`);
    // The keyboard goes on from the first new hit (the button may have gone with the last page).
    rows[0]?.querySelector(".entry").focus();
  }

  /** Redraws the list with `draw`; the entry that had the keyboard's focus has it again. */
  function keepingFocus(draw) {
    const focused = list.contains(document.activeElement) ? document.activeElement.closest("li")?.querySelector(".entry")?.dataset.id : null;
    draw();
    if (focused) [...list.querySelectorAll(".entry")].find((button) => button.dataset.id === focused)?.focus();
  }

  function hitRow({ entry, highlights }, ids) {
    ids.add(entry.id);
    const found = Object.fromEntries(highlights.map((highlight) => [highlight.field, highlight]));
    const date = new Date(entry.created_at);
    const zone = entry.tz || undefined;
    const item = el("li", { class: "hit" });
    const button = el("button", { type: "button", class: "entry found", "data-id": entry.id, "data-status": entry.status });
    const when = el("span", { class: "time" }, new Intl.DateTimeFormat(undefined, {
      timeZone: zone, weekday: "short", day: "numeric", month: "short", year: "numeric", hour: "numeric", minute: "2-digit",
    }).format(date));
    const status = entryPill(entry);
    const side = stateAndLength(entry, status);
    const words = el("span", { class: "words" });
    const passage = el("span", { class: "snippet" });
    if (entry.title) {
      words.append(...marked(found.title ?? { text: entry.title, matches: [] }));
      if (found.text) passage.append(...marked(found.text));
      else if (entry.transcript_clean) passage.textContent = entry.transcript_clean.slice(0, 280);
    } else if (found.text) {
      words.append(...marked(found.text));
    } else {
      words.textContent = fallbackWords(entry);
    }
    button.append(when, side, words);
    if (passage.textContent) button.append(passage);
    const described = [words.textContent, passage.textContent, when.textContent, status?.text];
    button.setAttribute("aria-label", described.filter(Boolean).join(", "));
    button.addEventListener("click", () => open(entry.id));
    item.append(button);
    const labels = hitTags(entry, found.tags);
    if (labels.length > 0) {
      const line = el("span", { class: "chips hit-tags" });
      line.append(...labels);
      item.append(line);
    }
    return item;
  }

  /** The entry's tags, each a button that adds it as a filter (marked where the search matched), and its mood. */
  function hitTags(entry, highlight) {
    const nodes = [];
    let offset = 0;
    for (const tag of entry.tags ?? []) {
      const at = offset;
      offset += tag.length + 2; // the highlight's text is the tags joined by ", "
      const inside = (highlight?.matches ?? [])
        .filter((match) => match.start >= at && match.start + match.length <= at + tag.length)
        .map((match) => ({ start: match.start - at, length: match.length }));
      const filtered = filters.tags.some((other) => other.toLowerCase() === tag.toLowerCase());
      if (filtered) {
        nodes.push(el("span", { class: "chip" }, tag));
        continue;
      }
      const button = el("button", { type: "button", class: "tag-filter", "aria-label": `Show only entries tagged ${tag}` });
      const face = el("span", { class: "chip" });
      face.append(...marked({ text: tag, matches: inside }));
      button.append(face);
      button.addEventListener("click", () => {
        filters.tags.push(tag);
        focusAfterDrawing = `tag:${tag}`;
        run();
      });
      nodes.push(button);
    }
    if (entry.mood) nodes.push(el("span", { class: "chip mood" }, `Mood ${entry.mood}/5`));
    return nodes;
  }

  /** The filters in force as chips, each a button that takes it off. */
  function drawChips(interpreted) {
    const items = [];
    const chip = (key, text, remove) => {
      const button = el("button", { type: "button", class: "filter-chip", "data-filter": key, "aria-label": `Remove filter: ${text}` });
      button.append(el("span", {}, text), el("span", { class: "remove", "aria-hidden": "true" }, "×"));
      button.addEventListener("click", () => {
        remove();
        syncPanel();
        searchBox.focus();
        run();
      });
      const item = el("li");
      item.append(button);
      items.push(item);
    };
    if (interpreted?.date_phrase) {
      const phrase = interpreted.date_phrase;
      chip("date-phrase", `${phrase} · ${days(interpreted.from, interpreted.to)}`, () => {
        readDates = false;
        dismissedDate = search.fold(phrase);
      });
    }
    if (filters.kind) chip("kind", filters.kind === "audio" ? "Recordings" : "Typed", () => (filters.kind = null));
    for (const mood of filters.moods) chip(`mood:${mood}`, `Mood ${mood}/5`, () => (filters.moods = filters.moods.filter((m) => m !== mood)));
    if (filters.from || filters.to) {
      const text = filters.from && filters.to ? days(filters.from, filters.to)
        : filters.from ? `From ${days(filters.from, filters.from)}` : `Until ${days(filters.to, filters.to)}`;
      chip("days", text, () => Object.assign(filters, { from: "", to: "" }));
    }
    for (const tag of filters.tags) chip(`tag:${tag}`, `Tag: ${tag}`, () => (filters.tags = filters.tags.filter((t) => t !== tag)));
    // The chip the keyboard was on keeps the focus when the chips are drawn again.
    const focused = filterChips.contains(document.activeElement) ? document.activeElement.dataset.filter : null;
    filterChips.replaceChildren(...items);
    const wanted = focusAfterDrawing ?? focused;
    focusAfterDrawing = null;
    if (wanted) ([...filterChips.querySelectorAll("button")].find((button) => button.dataset.filter === wanted) ?? searchBox).focus();
  }

  function groups(entries) {
    const nodes = [];
    let month = "";
    let day = "";
    let rows = null;
    for (const entry of entries) {
      const date = new Date(entry.created_at);
      const zone = entry.tz || undefined;
      const dayKey = localDay(date, zone);
      if (dayKey.slice(0, 7) !== month) {
        month = dayKey.slice(0, 7);
        nodes.push(el("h2", { class: "month" }, new Intl.DateTimeFormat(undefined, { timeZone: zone, month: "long", year: "numeric" }).format(date)));
      }
      if (dayKey !== day) {
        day = dayKey;
        // The day's header opens its day page.
        const header = el("h3", { class: "day" });
        const link = el("a", { href: `#/day/${dayKey}` }, new Intl.DateTimeFormat(undefined, { timeZone: zone, weekday: "long", month: "long", day: "numeric" }).format(date));
        header.append(link);
        nodes.push(header);
        rows = el("ul", { class: "entries" });
        nodes.push(rows);
      }
      rows.append(entryRow(entry, { zone, open }));
    }
    return nodes;
  }

  async function refresh() {
    error.textContent = "";
    notice.textContent = "";
    pull.textContent = "Refreshing…";
    try {
      await uploads.kick();
      await sync.sync();
    } catch (failure) {
      if (isOffline(failure)) notice.textContent = OFFLINE;
      else error.textContent = failure.message;
    } finally {
      pull.textContent = "";
      await render();
    }
  }

  /** A new search the person asked for. */
  function run() {
    error.textContent = "";
    render({ person: true }).catch((failure) => (error.textContent = failure.message));
  }

  view.action("refresh").addEventListener("click", refresh);
  let searchTimer = null;
  searchBox.addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => {
      query = searchBox.value.trim();
      // A date phrase taken off stays off while it is still in the box.
      if (dismissedDate && !search.fold(query).includes(dismissedDate)) dismissedDate = null;
      readDates = dismissedDate === null;
      run();
    }, 300);
  });

  // The Filters panel: the kind, moods and days; each change searches again and shows as a chip.
  toggle.addEventListener("click", () => {
    const opening = panel.hidden;
    panel.hidden = !opening;
    toggle.setAttribute("aria-expanded", String(opening));
  });
  for (const button of panel.querySelectorAll("[data-kind]")) {
    button.addEventListener("click", () => {
      filters.kind = filters.kind === button.dataset.kind ? null : button.dataset.kind;
      syncPanel();
      run();
    });
  }
  for (const button of panel.querySelectorAll("[data-mood]")) {
    button.addEventListener("click", () => {
      const mood = Number(button.dataset.mood);
      filters.moods = filters.moods.includes(mood) ? filters.moods.filter((m) => m !== mood) : [...filters.moods, mood].sort();
      syncPanel();
      run();
    });
  }
  for (const name of ["from", "to"]) {
    panel.querySelector(`[name=${name}]`).addEventListener("change", (event) => {
      filters[name] = event.target.value;
      if (filters.from && filters.to && filters.from > filters.to) {
        error.textContent = "The first day is after the last day.";
        return;
      }
      run();
    });
  }

  /** The panel's controls as the filters are (a chip taken off changes them). */
  function syncPanel() {
    for (const button of panel.querySelectorAll("[data-kind]")) button.setAttribute("aria-pressed", String(filters.kind === button.dataset.kind));
    for (const button of panel.querySelectorAll("[data-mood]")) button.setAttribute("aria-pressed", String(filters.moods.includes(Number(button.dataset.mood))));
    panel.querySelector("[name=from]").value = filters.from;
    panel.querySelector("[name=to]").value = filters.to;
  }

  moreButton.addEventListener("click", () => more().catch((failure) => (error.textContent = failure.message)));

  // Pull to refresh: drag down from the top of the page.
  let startY = null;
  view.root.addEventListener("touchstart", (event) => (startY = scrollY === 0 ? event.touches[0].clientY : null), { passive: true });
  view.root.addEventListener("touchmove", (event) => {
    if (startY !== null) pull.textContent = event.touches[0].clientY - startY > 70 ? "Release to refresh" : "";
  }, { passive: true });
  view.root.addEventListener("touchend", (event) => {
    if (startY !== null && event.changedTouches[0].clientY - startY > 70) refresh();
    startY = null;
  });

  uploads.onChange(() => render());
  /** Redraws after a sync, saying whether the server could be reached. */
  async function update({ offline }) {
    notice.textContent = offline ? OFFLINE : "";
    await render();
  }

  /** Shows the entries that hold `text` (a name or topic from Insights). */
  function searchFor(text) {
    searchBox.value = text.includes(" ") ? `"${text}"` : text;
    query = searchBox.value;
    readDates = false;
    run();
  }

  return { root: view.root, refresh, render, update, searchFor };
}

/** What a row says when an entry has no title. */
function fallbackWords(entry) {
  return entry.title || entry.transcript_clean?.split("\n")[0] || (entry.no_speech ? "No speech" : entry.kind === "audio" ? "Voice entry" : "Note");
}

/** `text` with the ranges of `matches` (UTF-16 offsets) in <mark> elements: DOM nodes, never HTML. */
function marked({ text, matches }) {
  const nodes = [];
  let at = 0;
  for (const { start, length } of [...matches].sort((a, b) => a.start - b.start)) {
    const from = Math.max(start, at);
    const to = Math.min(start + length, text.length);
    if (to <= from) continue;
    if (from > at) nodes.push(document.createTextNode(text.slice(at, from)));
    nodes.push(el("mark", {}, text.slice(from, to)));
    at = to;
  }
  if (at < text.length) nodes.push(document.createTextNode(text.slice(at)));
  return nodes;
}

/** A range of days (YYYY-MM-DD) in words: "Mar 9 – 15", with the year when it is not this one. */
function days(from, to) {
  const [a, b] = [from, to ?? from].map((day) => {
    const [year, month, date] = day.split("-").map(Number);
    return new Date(Date.UTC(year, month - 1, date));
  });
  const thisYear = new Date().getFullYear();
  const withYear = a.getUTCFullYear() !== thisYear || b.getUTCFullYear() !== thisYear;
  const format = new Intl.DateTimeFormat(undefined, { timeZone: "UTC", day: "numeric", month: "short", ...(withYear ? { year: "numeric" } : {}) });
  if (from === to || !to) return format.format(a);
  return format.formatRange ? format.formatRange(a, b) : `${format.format(a)} – ${format.format(b)}`;
}

/** A row's side: its state's pill (`status`, from `entryPill`), if any, and a recording's length. */
function stateAndLength(entry, status) {
  const side = el("span", { class: "side" });
  if (status) side.append(el("span", { class: `pill ${status.kind}` }, status.text));
  if (entry.kind === "audio") side.append(el("span", { class: "length" }, duration(entry.duration_s)));
  return side;
}

/** One entry as a row of a list of one day's entries (the Library, a day page): its time, words, state, length, tags. */
export function entryRow(entry, { zone, open }) {
  const date = new Date(entry.created_at);
  const item = el("li");
  const button = el("button", { type: "button", class: "entry", "data-id": entry.id, "data-status": entry.status });
  const words = fallbackWords(entry);
  button.append(
    el("span", { class: "time" }, new Intl.DateTimeFormat(undefined, { timeZone: zone, hour: "numeric", minute: "2-digit" }).format(date)),
    el("span", { class: "words" }, words),
  );
  const status = entryPill(entry);
  // A state ("Transcribing… 40%") takes a line of its own under the words.
  if (status) button.classList.add("has-pill");
  button.append(stateAndLength(entry, status));
  const labels = chips(entry);
  if (labels.length > 0) {
    const line = el("span", { class: "chips" });
    line.append(...labels);
    button.append(line);
  }
  const described = [words, button.firstChild.textContent, status?.text, ...labels.map((chip) => chip.textContent)];
  button.setAttribute("aria-label", described.filter(Boolean).join(", "));
  button.addEventListener("click", () => open(entry.id));
  item.append(button);
  return item;
}
