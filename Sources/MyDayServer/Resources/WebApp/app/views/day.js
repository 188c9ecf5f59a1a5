import { call, isOffline } from "../api.js";
import { chips, counted, duration, el, entryPill, fromTemplate } from "../ui.js";

/**
 * One day: a digest in its own words (each sentence plays its recording from where it was said), the day's tags and
 * mood, and its entries. `date` is YYYY-MM-DD.
 */
export async function dayView(date, { back, open }) {
  const view = fromTemplate("day-template");
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const [year, month, day] = date.split("-").map(Number);
  // Noon UTC names the same calendar day in every zone.
  view.slot("title").textContent = new Intl.DateTimeFormat(undefined, { timeZone: "UTC", dateStyle: "full" })
    .format(new Date(Date.UTC(year, month - 1, day, 12)));
  view.action("back").addEventListener("click", back);
  let page;
  try {
    page = await call("GET", `/v1/days/${encodeURIComponent(date)}?tz=${encodeURIComponent(zone)}`);
  } catch (failure) {
    view.slot("error").textContent = isOffline(failure)
      ? "You are offline: the day page opens when My Day can reach its server."
      : failure.message;
    return { root: view.root };
  }
  const parts = [counted(page.entries.length, "entry", "entries")];
  if (page.mood) parts.push(`mood ${page.mood} of 5`);
  if (page.tags.length) parts.push(page.tags.join(", "));
  view.slot("meta").textContent = parts.join(" · ");
  const audio = view.slot("audio");
  const byID = new Map(page.entries.map((entry) => [entry.id, entry]));

  async function play(sentence) {
    try {
      if (audio.dataset.entry !== sentence.entry_id) {
        const link = await call("GET", `/v1/entries/${sentence.entry_id}/audio`);
        const loaded = new Promise((resolve, reject) => {
          audio.addEventListener("loadedmetadata", resolve, { once: true });
          audio.addEventListener("error", () => reject(new Error("The recording could not be played.")), { once: true });
        });
        audio.src = link.url;
        audio.dataset.entry = sentence.entry_id;
        audio.hidden = false;
        audio.load();
        await loaded;
      }
      audio.currentTime = sentence.start;
      await audio.play();
    } catch (failure) {
      view.slot("error").textContent = failure.message;
    }
  }

  view.slot("digest").replaceChildren(...page.digest.map((sentence) => {
    const item = el("li");
    const quote = el("q", {}, sentence.text);
    if (sentence.start != null && byID.get(sentence.entry_id)?.kind === "audio") {
      const button = el("button", { type: "button", class: "sentence" });
      button.append(quote);
      button.setAttribute("aria-label", `Play from “${sentence.text}”`);
      button.addEventListener("click", () => play(sentence));
      item.append(button);
    } else {
      item.append(quote);
    }
    return item;
  }));
  view.slot("digest-card").hidden = page.digest.length === 0;
  view.slot("empty").hidden = page.entries.length > 0;

  view.slot("entries").replaceChildren(...page.entries.map((entry) => {
    const item = el("li");
    const button = el("button", { type: "button", class: "entry", "data-id": entry.id, "data-status": entry.status });
    const time = new Intl.DateTimeFormat(undefined, { timeZone: entry.tz, hour: "numeric", minute: "2-digit" })
      .format(new Date(entry.created_at));
    const words = entry.title || (entry.no_speech ? "No speech" : (entry.transcript_clean ?? ""));
    button.append(el("span", { class: "time" }, time), el("span", { class: "words" }, words));
    const side = el("span", { class: "side" });
    const status = entryPill(entry);
    if (status) side.append(el("span", { class: `pill ${status.kind}` }, status.text));
    if (entry.kind === "audio") side.append(el("span", { class: "length" }, duration(entry.duration_s)));
    button.append(side);
    const labels = chips(entry);
    if (labels.length) {
      const line = el("span", { class: "chips" });
      line.append(...labels);
      button.append(line);
    }
    button.addEventListener("click", () => open(entry.id));
    item.append(button);
    return item;
  }));
  return { root: view.root };
}
