import { call } from "../api.js";
import { counted, el, fromTemplate, readForScreen } from "../ui.js";
import { entryRow } from "./library.js";

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
  const audio = view.slot("audio");
  let byID = new Map();

  /** Reads the day and draws it; `quietly` (a change arrived while it shows) keeps what is shown when it cannot. */
  async function draw({ quietly = false } = {}) {
    const page = await readForScreen(
      view, () => call("GET", `/v1/days/${encodeURIComponent(date)}?tz=${encodeURIComponent(zone)}`),
      "You are offline: the day page opens when My Day can reach its server.", { quietly });
    if (!page) return;
    const parts = [counted(page.entries.length, "entry", "entries")];
    if (page.mood) parts.push(`mood ${page.mood} of 5`);
    if (page.tags.length) parts.push(page.tags.join(", "));
    view.slot("meta").textContent = parts.join(" · ");
    byID = new Map(page.entries.map((entry) => [entry.id, entry]));
    view.slot("digest").replaceChildren(...page.digest.map(digestItem));
    view.slot("digest-card").hidden = page.digest.length === 0;
    view.slot("empty").hidden = page.entries.length > 0;
    view.slot("entries").replaceChildren(...page.entries.map((entry) => entryRow(entry, { zone: entry.tz, open })));
  }

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

  /** A sentence of the digest; one said in a recording plays it from there. */
  function digestItem(sentence) {
    const item = el("li");
    // A model's sentence (only ever the day's own words) is not quoted as if it were said.
    const quote = sentence.by_model ? el("span", { title: "Summed up from your words" }, sentence.text) : el("q", {}, sentence.text);
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
  }

  await draw();
  // Drawn again when the diary changes while it shows (a transcript done, an entry added or deleted elsewhere).
  return { root: view.root, update: () => draw({ quietly: true }) };
}
