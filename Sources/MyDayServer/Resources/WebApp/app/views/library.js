import { call } from "../api.js";
import * as sync from "../sync.js";
import * as uploads from "../uploads.js";
import { duration, el, fromTemplate, localDay, pill } from "../ui.js";

/** Library: entries by month and day (in each entry's time zone), newest first, with status pills. */
export function libraryView({ open }) {
  const view = fromTemplate("library-template");
  const list = view.slot("list");
  const error = view.slot("error");
  const search = view.slot("search");
  const pull = view.slot("pull");
  let query = "";

  async function render() {
    const waiting = (await uploads.pending()).map((item) => ({
      id: item.id, created_at: item.createdAt, tz: item.tz, duration_s: item.duration, kind: item.kind,
      status: item.state, transcript_clean: item.text, local: true,
    }));
    let entries = query ? await call("GET", `/v1/entries?q=${encodeURIComponent(query)}&limit=200`).then((page) => page.entries) : await sync.entries();
    if (!query) {
      const synced = new Set(entries.map((entry) => entry.id));
      entries = [...waiting.filter((item) => !synced.has(item.id)), ...entries];
    }
    entries.sort((a, b) => b.created_at.localeCompare(a.created_at));
    view.slot("empty").hidden = entries.length > 0 || Boolean(query);
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
    if (entry.kind === "audio") side.append(el("span", {}, duration(entry.duration_s)));
    button.append(side);
    button.setAttribute("aria-label", `${words}, ${button.firstChild.textContent}${status ? `, ${status.text}` : ""}`);
    button.addEventListener("click", () => {
      if (entry.local && entry.status === "refused") uploads.retry(entry.id);
      else if (!entry.local) open(entry.id);
    });
    item.append(button);
    return item;
  }

  async function refresh() {
    error.textContent = "";
    pull.textContent = "Refreshing…";
    try {
      await uploads.kick();
      await sync.sync();
    } catch (failure) {
      error.textContent = failure.message || "Could not reach the server. Your entries are safe on this device.";
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
  return { root: view.root, refresh, render };
}
