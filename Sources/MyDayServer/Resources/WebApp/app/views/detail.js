import { call, currentAccount, isOffline } from "../api.js";
import * as db from "../db.js";
import * as uploads from "../uploads.js";
import { announce, chips, duration, fromTemplate, pill } from "../ui.js";

const LONGEST_TITLE = 200;
const PLAYS_ONLINE = "You are offline: the recording plays once My Day can reach its server.";
let localAudio = null;

/**
 * One entry: the clean transcript (the original on demand), the audio, edits, retry and delete. An
 * entry still waiting in this browser opens as it is here: its audio or text, and what it waits for.
 * `reopen()` opens the page again (once a waiting entry has reached the server).
 */
export async function detailView(id, { back, reopen }) {
  const waiting = await db.get("outbox", id);
  if (waiting && waiting.owner === currentAccount()?.id) return localView(waiting, { back, reopen });
  let entry = await db.get("entries", id);
  if (!entry) {
    entry = await call("GET", `/v1/entries/${id}`);
    await db.put("entries", entry);
  }
  return syncedView(entry, { back });
}

function when(entry) {
  const date = new Date(entry.created_at);
  const day = new Intl.DateTimeFormat(undefined, { timeZone: entry.tz, dateStyle: "full" }).format(date);
  const time = new Intl.DateTimeFormat(undefined, { timeZone: entry.tz, timeStyle: "short" }).format(date);
  return { day, time };
}

function syncedView(first, { back }) {
  const view = fromTemplate("detail-template");
  const { id } = first;
  const error = view.slot("error");
  const original = view.action("original");
  const form = view.form("edit");
  const titleError = view.slot("title-error");
  const savedNote = view.slot("saved");
  let entry = first;
  let showingOriginal = false;
  let audioLoaded = false;
  // What the form showed last, so a redraw never overwrites what is being typed.
  let shown = {};

  function fields() {
    return { title: form.elements.title.value, tags: form.elements.tags.value, mood: form.elements.mood.value };
  }

  function render() {
    const { day, time } = when(entry);
    view.slot("title").textContent = entry.title || day;
    const at = entry.title ? `${day}, ${time}` : time;
    view.slot("meta").textContent = entry.kind === "audio" ? `${at} · ${duration(entry.duration_s)}` : at;
    view.slot("chips").replaceChildren(...chips(entry));
    const status = pill(entry.status);
    view.slot("status").textContent = status ? (entry.failure_reason ? `${status.text}: ${entry.failure_reason}` : status.text) : "";
    const text = showingOriginal ? entry.transcript_raw : entry.transcript_clean;
    view.slot("transcript").textContent = entry.no_speech ? "No speech was heard in this recording." : (text ?? "");
    original.hidden = entry.kind !== "audio" || !entry.transcript_raw;
    original.textContent = showingOriginal ? "Show clean text" : "Show original";
    original.setAttribute("aria-pressed", String(showingOriginal));
    view.action("retry").hidden = entry.status !== "failed";
    view.action("retranscribe").hidden = entry.kind !== "audio" || entry.status !== "transcribed";
    const next = { title: entry.title ?? "", tags: (entry.tags ?? []).join(", "), mood: String(entry.mood ?? 0) };
    const now = fields();
    for (const name of Object.keys(next)) {
      if (shown[name] === undefined || now[name] === shown[name]) form.elements[name].value = next[name];
    }
    shown = next;
    loadAudio().catch((failure) => {
      audioLoaded = false;
      error.textContent = isOffline(failure) ? PLAYS_ONLINE : failure.message;
    });
  }

  async function loadAudio() {
    if (audioLoaded || entry.kind !== "audio" || entry.status === "pending_upload") return;
    audioLoaded = true;
    const link = await call("GET", `/v1/entries/${id}/audio`);
    if (error.textContent === PLAYS_ONLINE) error.textContent = "";
    playable(view.slot("audio"), link.url);
  }

  async function saved(next) {
    entry = next;
    await db.put("entries", entry);
    render();
  }

  function titleProblem() {
    const length = [...form.elements.title.value.trim()].length;
    return length > LONGEST_TITLE ? `A title can have at most ${LONGEST_TITLE} characters; this one has ${length}.` : "";
  }

  function showTitleProblem() {
    const problem = titleProblem();
    titleError.textContent = problem;
    if (problem) form.elements.title.setAttribute("aria-invalid", "true");
    else form.elements.title.removeAttribute("aria-invalid");
    return problem;
  }

  original.addEventListener("click", () => {
    showingOriginal = !showingOriginal;
    render();
  });
  for (const name of ["retry", "retranscribe"]) {
    view.action(name).addEventListener("click", async () => {
      try {
        await saved(await call("POST", `/v1/entries/${id}/retranscribe`));
      } catch (failure) {
        error.textContent = failure.message;
      }
    });
  }
  form.addEventListener("input", () => {
    savedNote.textContent = "";
    if (titleError.textContent) showTitleProblem();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    if (showTitleProblem()) {
      form.elements.title.focus();
      return;
    }
    const tags = form.elements.tags.value.split(",").map((tag) => tag.trim()).filter(Boolean);
    try {
      shown = {};
      await saved(await call("PATCH", `/v1/entries/${id}`, { title: form.elements.title.value.trim(), tags, mood: Number(form.elements.mood.value) }));
      savedNote.textContent = "Saved";
      announce("Changes saved");
    } catch (failure) {
      error.textContent = failure.message;
    }
  });
  view.action("delete").addEventListener("click", async () => {
    if (!confirm("Delete this entry and its recording? This cannot be undone.")) return;
    try {
      await call("DELETE", `/v1/entries/${id}`);
      await db.remove("entries", id);
      back();
    } catch (failure) {
      error.textContent = failure.message;
    }
  });
  view.action("back").addEventListener("click", back);

  /** After a sync: the entry as it is now (back to the Library when it was deleted elsewhere). */
  async function update() {
    const now = await db.get("entries", id);
    if (!now) return back();
    entry = now;
    render();
  }

  render();
  return { root: view.root, update };
}

/** A waiting entry, as this browser holds it: it plays from here, and says it waits to upload. */
function localView(item, { back, reopen }) {
  const view = fromTemplate("detail-template");
  const entry = { created_at: item.createdAt, tz: item.tz };
  const { day, time } = when(entry);
  view.slot("title").textContent = day;
  view.slot("meta").textContent = item.kind === "audio" ? `${time} · ${duration(item.duration)}` : time;
  view.slot("transcript").textContent = item.kind === "text" ? item.text : "";
  view.form("edit").hidden = true;
  view.action("delete").hidden = true;
  view.action("back").addEventListener("click", back);
  if (item.kind === "audio") {
    if (localAudio) URL.revokeObjectURL(localAudio);
    localAudio = URL.createObjectURL(item.blob);
    playable(view.slot("audio"), localAudio);
  }
  const retry = view.action("retry");
  retry.addEventListener("click", () => uploads.retry(item.id));

  function render(current) {
    const refused = current.state === "refused";
    const { text } = pill(current.state);
    view.slot("status").textContent = refused
      ? `Not uploaded: ${current.lastError}`
      : `${text}${text.endsWith("…") ? "" : "."} It is safe on this device until My Day's server has it.`;
    retry.hidden = !refused;
  }

  /** Follows the upload; once the server has the entry, the page opens it from there. */
  async function update() {
    const current = await db.get("outbox", item.id);
    if (current) render(current);
    else reopen();
  }

  const stop = uploads.onChange(() => (view.root.isConnected ? update() : stop()));
  render(item);
  return { root: view.root, update };
}

/** Shows the player for `url`. Browsers' own WebM recordings carry no duration: it seeks far ahead
 * once, so the player learns it (and seeking works), then comes back to the start. */
function playable(audio, url) {
  audio.addEventListener("loadedmetadata", () => {
    if (audio.duration !== Infinity) return;
    audio.addEventListener("durationchange", () => (audio.currentTime = 0), { once: true });
    audio.currentTime = 1e101;
  }, { once: true });
  audio.src = url;
  audio.hidden = false;
}
