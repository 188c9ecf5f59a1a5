// Small helpers every screen uses. Text goes into the page with textContent only, never as HTML.
import { isOffline } from "./api.js";

/** A fresh copy of a <template> in index.html, with lookups for its slots, actions and forms. */
export function fromTemplate(id) {
  const root = document.getElementById(id).content.firstElementChild.cloneNode(true);
  return {
    root,
    slot: (name) => root.querySelector(`[data-slot="${name}"]`),
    action: (name) => root.querySelector(`[data-action="${name}"]`),
    form: (name) => root.querySelector(`[data-form="${name}"]`),
  };
}

/** An element with text and attributes. */
export function el(tag, attributes = {}, text) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

/** Says `text` through the live region, for screen readers. */
export function announce(text) {
  const live = document.getElementById("live");
  live.textContent = "";
  requestAnimationFrame(() => (live.textContent = text));
}

/** `m:ss`, or `h:mm:ss` from an hour on, whole seconds cut as the browser's audio player cuts them. */
export function duration(seconds) {
  const whole = Math.floor(Number.isFinite(seconds) ? Math.max(0, seconds) : 0);
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  const two = (n) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** The pill an entry shows until it is readable, or while its words need a look (`needs_review`). */
export function entryPill(entry) {
  if (entry.status === "transcribed" && entry.needs_review) return { text: "Check the words", kind: "review" };
  // A long recording says how much the server has heard.
  if (entry.status === "transcribing" && Number.isInteger(entry.transcription_percent)) {
    return { text: `Transcribing… ${entry.transcription_percent}%`, kind: "" };
  }
  return pill(entry.status);
}

/** The pill of an upload or transcription state. */
export function pill(status) {
  switch (status) {
    case "queued":
      return { text: "Waiting to upload", kind: "" };
    case "uploading":
      return { text: "Uploading…", kind: "" };
    case "pending_upload":
    case "uploaded":
    case "transcribing":
      return { text: "Transcribing…", kind: "" };
    case "failed":
    case "refused":
      return { text: "Failed — retry", kind: "failed" };
    default:
      return null;
  }
}

/** "1 entry", "3 entries": a count with its noun. */
export function counted(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}

/** An entry's tags and mood as small labels (none when it has neither). */
export function chips(entry) {
  const nodes = (entry.tags ?? []).map((tag) => el("span", { class: "chip" }, tag));
  if (entry.mood) nodes.push(el("span", { class: "chip mood" }, `Mood ${entry.mood}/5`));
  return nodes;
}

/** `YYYY-MM-DD` of a date in a time zone. */
export function localDay(date, timeZone) {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(date);
}

/** A pause this long (seconds) after a sentence starts a new paragraph of a transcript. */
const PARAGRAPH_PAUSE_S = 1.5;
/** And a paragraph has at most this many sentences. */
const PARAGRAPH_SENTENCES = 5;

/**
 * Where a transcript's paragraphs end: the indexes of the words after which a new paragraph starts. A paragraph
 * ends after a sentence followed by a pause (when the words have times), or after `PARAGRAPH_SENTENCES` sentences.
 * `words` are `{ word, start?, end? }` in order.
 */
export function paragraphEnds(words) {
  const ends = [];
  let sentences = 0;
  for (let i = 0; i < words.length - 1; i++) {
    if (!/[.!?…]["”’)]?$/.test(words[i].word)) continue;
    sentences++;
    const gap = words[i + 1].start != null && words[i].end != null ? words[i + 1].start - words[i].end : 0;
    if (gap >= PARAGRAPH_PAUSE_S || sentences >= PARAGRAPH_SENTENCES) {
      ends.push(i);
      sentences = 0;
    }
  }
  return ends;
}

/** `date` as a wall clock in `timeZone`, as a `datetime-local` input shows it: "2026-04-20T23:00". */
export function wallClock(date, timeZone) {
  const parts = Object.fromEntries(new Intl.DateTimeFormat("en-CA", {
    timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23",
  }).formatToParts(date).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** The moment a wall clock ("2026-04-20T23:00") in `timeZone` shows; a time the clocks skip moves to after the gap. */
export function momentOf(clock, timeZone) {
  const asUTC = (text) => {
    const [day, time] = text.split("T");
    const [year, month, date] = day.split("-").map(Number);
    const [hour, minute] = time.split(":").map(Number);
    return Date.UTC(year, month - 1, date, hour, minute);
  };
  const wanted = asUTC(clock);
  let guess = wanted;
  for (let round = 0; round < 3; round++) guess += wanted - asUTC(wallClock(new Date(guess), timeZone));
  return new Date(guess);
}

/**
 * Says `text` with an Undo button that runs `undo`, until it is used, dismissed, or the person goes to another screen.
 * No timer takes it away: whoever reads slowly or with a screen reader keeps the chance.
 */
export function offerUndo(text, undo) {
  const box = document.getElementById("undo");
  const action = box.querySelector("[data-action=undo]");
  const close = () => {
    box.hidden = true;
    action.onclick = null;
    removeEventListener("hashchange", close);
  };
  box.querySelector("[data-slot=text]").textContent = text;
  box.querySelector("[data-action=dismiss]").onclick = close;
  action.onclick = async () => {
    close();
    await undo();
  };
  box.hidden = false;
  announce(`${text} Undo is at the bottom of the screen.`);
  // Registered after the navigation that brought this screen has been handled.
  setTimeout(() => addEventListener("hashchange", close, { once: true }));
}

/** Shows `message` in a field's own error line `slot`, marks the field invalid and puts the focus in it. */
export function refuseField(field, slot, message) {
  slot.textContent = message;
  field.setAttribute("aria-invalid", "true");
  field.focus();
}

/** Takes away what `refuseField` showed on these fields and error lines. */
export function clearFieldErrors(fields, slots) {
  for (const field of fields) field.removeAttribute("aria-invalid");
  for (const slot of slots) slot.textContent = "";
}

/**
 * Reads what a screen shows with `read()`, clearing the view's error slot; when that fails it says why there
 * (`offlineText` when offline), unless `quietly` (a change arrived while it shows, and what is shown stays). Answers
 * undefined when it failed.
 */
export async function readForScreen(view, read, offlineText, { quietly = false } = {}) {
  try {
    const answer = await read();
    view.slot("error").textContent = "";
    return answer;
  } catch (failure) {
    if (!quietly) view.slot("error").textContent = isOffline(failure) ? offlineText : failure.message;
    return undefined;
  }
}
