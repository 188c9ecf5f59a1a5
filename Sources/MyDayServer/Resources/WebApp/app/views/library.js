import { call, isOffline } from "../api.js";
import * as sync from "../sync.js";
import * as uploads from "../uploads.js";
import { chips, duration, el, fromTemplate, localDay, pill } from "../ui.js";

const OFFLINE = "You are offline: showing what is on this device.";

/** Whether every word of `query` is in the entry's title, transcript, typed text or tags (as the device has it). */
export function matches(entry, query) {
  const text = [entry.title, entry.transcript_clean, entry.transcript_raw, ...(entry.tags ?? [])].filter(Boolean).join(" ").toLowerCase();
  return query.toLowerCase().split(/\s+/).filter(Boolean).every((word) => text.includes(word));
}

/** Library: entries by month and day (in each entry's time zone), newest first, with status pills. */
export function libraryView({ open }) {
  const view = fromTemplate("library-template");
  const list = view.slot("list");
  const error = view.slot("error");
  const search = view.slot("search");
  const pull = view.slot("pull");
  const notice = view.slot("notice");
  let query = "";

  /** The server's hits for the query; offline, the device's own copy searched here. */
  async function found() {
    try {
      const page = await call("GET", `/v1/entries?q=${encodeURIComponent(query)}&limit=200`);
      notice.textContent = "";
      return page.entries;
    } catch (failure) {
      if (!isOffline(failure)) throw failure;
      notice.textContent = "You are offline: searching what is on this device.";
      return (await sync.entries()).filter((entry) => matches(entry, query));
    }
  }

  async function render() {
    const waiting = (await uploads.pending()).map((item) => ({
      id: item.id, created_at: item.createdAt, tz: item.tz, duration_s: item.duration, kind: item.kind,
      status: item.state, transcript_clean: item.text, local: true,
    }));
    let entries = query ? await found() : await sync.entries();
    const known = new Set(entries.map((entry) => entry.id));
    entries = [...waiting.filter((item) => !known.has(item.id) && (!query || matches(item, query))), ...entries];
    entries.sort((a, b) => b.created_at.localeCompare(a.created_at));
    view.slot("empty").hidden = entries.length > 0 || Boolean(query);
    view.slot("no-matches").hidden = entries.length > 0 || !query;
    list.replaceChildren(...groups(entries));
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
        nodes.push(el("h3", { class: "day" }, new Intl.DateTimeFormat(undefined, { timeZone: zone, weekday: "long", month: "long", day: "numeric" }).format(date)));
        rows = el("ul", { class: "entries" });
        nodes.push(rows);
      }
      rows.append(row(entry, date, zone));
    }
    return nodes;
  }

  function row(entry, date, zone) {
    const item = el("li");
    const button = el("button", { type: "button", class: "entry", "data-id": entry.id, "data-status": entry.status });
    const words = entry.title || entry.transcript_clean?.split("\n")[0] || (entry.no_speech ? "No speech" : entry.kind === "audio" ? "Voice entry" : "Note");
    button.append(
      el("span", { class: "time" }, new Intl.DateTimeFormat(undefined, { timeZone: zone, hour: "numeric", minute: "2-digit" }).format(date)),
      el("span", { class: "words" }, words),
    );
    const side = el("span", { class: "side" });
    const status = pill(entry.status);
    if (status) side.append(el("span", { class: `pill ${status.kind}` }, status.text));
    if (entry.kind === "audio") side.append(el("span", { class: "length" }, duration(entry.duration_s)));
    button.append(side);
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

  view.action("refresh").addEventListener("click", refresh);
  let searchTimer = null;
  search.addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => {
      query = search.value.trim();
      render().catch((failure) => (error.textContent = failure.message));
    }, 300);
  });

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

  return { root: view.root, refresh, render, update };
}
