import { call, currentAccount, isOffline } from "../api.js";
import * as db from "../db.js";
import * as uploads from "../uploads.js";
import { announce, chips, duration, entryPill, fromTemplate, momentOf, offerUndo, paragraphEnds, pill, wallClock } from "../ui.js";
import { restoreEntry } from "./deleted.js";

const LONGEST_TITLE = 200;
const PLAYS_ONLINE = "You are offline: the recording plays once My Day can reach its server.";
let localAudio = null;

/**
 * One entry: the clean transcript (the original on demand), the audio, edits, retry and delete. An
 * entry still waiting in this browser opens as it is here: its audio or text, and what it waits for.
 * `reopen()` opens the page again (once a waiting entry has reached the server).
 */
export async function detailView(id, { back, backLabel = "← Library", reopen }) {
  const waiting = await db.get("outbox", id);
  if (waiting && waiting.owner === currentAccount()?.id) return localView(waiting, { back, backLabel, reopen });
  let entry = await db.get("entries", id);
  if (!entry) {
    entry = await call("GET", `/v1/entries/${id}`);
    await db.put("entries", entry);
  }
  return syncedView(entry, { back, backLabel });
}

function when(entry) {
  const date = new Date(entry.created_at);
  const day = new Intl.DateTimeFormat(undefined, { timeZone: entry.tz, dateStyle: "full" }).format(date);
  const time = new Intl.DateTimeFormat(undefined, { timeZone: entry.tz, timeStyle: "short" }).format(date);
  return { day, time };
}

function syncedView(first, { back, backLabel }) {
  const view = fromTemplate("detail-template");
  // Back to where the entry was opened from: Home, its day page or the Library.
  view.action("back").textContent = backLabel;
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
  const words = followedWords(view, () => entry);
  const suggestions = suggested(view, {
    entry: () => entry,
    accept: async (edit) => {
      shown = {};
      await saved(await call("PATCH", `/v1/entries/${id}`, edit));
      announce("Suggestion accepted");
    },
  });
  const editor = wordsEditor(view, {
    entry: () => entry,
    save: async (text) => saved(await call("PATCH", `/v1/entries/${id}`, { text })),
    closed: () => render(),
  });

  function fields() {
    return {
      title: form.elements.title.value, tags: form.elements.tags.value, mood: form.elements.mood.value,
      when: form.elements.when.value,
    };
  }

  function render() {
    const { day, time } = when(entry);
    view.slot("title").textContent = entry.title || day;
    const at = entry.title ? `${day}, ${time}` : time;
    view.slot("meta").textContent = entry.kind === "audio" ? `${at} · ${duration(entry.duration_s)}` : at;
    view.slot("chips").replaceChildren(...chips(entry));
    const status = entry.status === "transcribed" ? null : entryPill(entry);
    const review = entry.status === "transcribed" && entry.needs_review ? entry.review_reason : "";
    view.slot("status").textContent = status ? (entry.failure_reason ? `${status.text}: ${entry.failure_reason}` : status.text) : review;
    const text = showingOriginal ? entry.transcript_raw : entry.transcript_clean;
    if (entry.no_speech) {
      view.slot("transcript").textContent = "No speech was heard in this recording.";
      view.slot("transcript").dataset.drawn = "no";
    }
    else if (showingOriginal) {
      view.slot("transcript").textContent = text ?? "";
      view.slot("transcript").dataset.drawn = "no";
    }
    else words.show(text ?? "");
    // A recording's words are marked as automatic until the person edits them.
    const origin = view.slot("words-origin");
    origin.hidden = entry.kind !== "audio" || entry.no_speech || entry.transcript_clean == null;
    origin.textContent = showingOriginal ? "As heard, before cleanup" : entry.words_edited ? "Edited by you" : "Automatic transcript";
    origin.dataset.edited = String(Boolean(entry.words_edited));
    view.action("edit-words").hidden = editor.open || !["transcribed", "failed"].includes(entry.status) ||
      (entry.kind === "audio" && entry.transcript_clean == null);
    original.hidden = entry.kind !== "audio" || !entry.transcript_raw;
    original.textContent = showingOriginal ? "Show clean text" : "Show original";
    original.setAttribute("aria-pressed", String(showingOriginal));
    view.action("retry").hidden = entry.status !== "failed";
    view.action("retranscribe").hidden = entry.kind !== "audio" || entry.status !== "transcribed";
    const next = {
      title: entry.title ?? "", tags: (entry.tags ?? []).join(", "), mood: String(entry.mood ?? 0),
      when: wallClock(new Date(entry.created_at), entry.tz),
    };
    view.slot("when-zone").textContent = `In ${entry.tz.replaceAll("_", " ")} time. A new date moves the entry to that day.`;
    const now = fields();
    for (const name of Object.keys(next)) {
      if (shown[name] === undefined || now[name] === shown[name]) form.elements[name].value = next[name];
    }
    shown = next;
    suggestions.show();
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

  view.action("edit-words").addEventListener("click", () => {
    showingOriginal = false;
    editor.start();
    render();
  });
  original.addEventListener("click", () => {
    showingOriginal = !showingOriginal;
    render();
  });
  for (const name of ["retry", "retranscribe"]) {
    view.action(name).addEventListener("click", async () => {
      // A fresh transcript replaces the words: words the person edited are not replaced without asking.
      const edited = name === "retranscribe" && entry.words_edited;
      if (edited && !confirm("Transcribe again replaces the words you edited with a fresh transcript of the audio. Go on?")) return;
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
      const change = { title: form.elements.title.value.trim(), tags, mood: Number(form.elements.mood.value) };
      const when = form.elements.when.value;
      if (when && when !== wallClock(new Date(entry.created_at), entry.tz)) change.created_at = momentOf(when, entry.tz).toISOString();
      await saved(await call("PATCH", `/v1/entries/${id}`, change));
      savedNote.textContent = "Saved";
      announce("Changes saved");
    } catch (failure) {
      error.textContent = failure.message;
    }
  });
  view.action("delete").addEventListener("click", async () => {
    try {
      await call("DELETE", `/v1/entries/${id}`);
      await db.remove("entries", id);
      back();
      offerUndo("Moved to Recently deleted.", async () => {
        try {
          await restoreEntry(id);
          location.hash = `#/entry/${id}`;
        } catch (failure) {
          announce(failure.message);
        }
      });
    } catch (failure) {
      error.textContent = failure.message;
    }
  });
  view.action("back").addEventListener("click", () => {
    if (editor.unsaved && !confirm("Your last changes to the words are not saved yet. Leave anyway?")) return;
    editor.flush();
    back();
  });

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

/**
 * The transcript as words that follow the audio: while it plays, the word being said is marked and kept in view;
 * tapping a word plays from it; words the recognizer was unsure of are dotted. The words and their times come from
 * `GET /v1/entries/{id}/words`, fetched again whenever the entry changed.
 */
function followedWords(view, currentEntry) {
  const box = view.slot("transcript");
  const audio = view.slot("audio");
  let timed = null;
  let fetchedFor = null;
  let spans = [];
  let current = -1;
  let text = "";

  async function fetchWords(entry) {
    const key = `${entry.id}:${entry.updated_at}`;
    if (fetchedFor === key || entry.kind !== "audio" || entry.status !== "transcribed") return;
    fetchedFor = key;
    try {
      timed = (await call("GET", `/v1/entries/${entry.id}/words`)).words;
    } catch {
      // Offline or gone: the plain text stays; the next change tries again.
      fetchedFor = null;
      return;
    }
    if (currentEntry() === entry) draw();
  }

  function draw() {
    current = -1;
    spans = [];
    const parts = text.split(/(\s+)/);
    const written = parts.filter((part) => part && !/^\s+$/.test(part));
    const usable = timed && timed.length === written.length;
    // A recording's words run on: they are shown in paragraphs, at pauses after a sentence (the person's own line
    // breaks stay as they are).
    const breaks = currentEntry()?.kind === "audio" && !text.includes("\n")
      ? new Set(paragraphEnds(usable ? written.map((word, i) => ({ ...timed[i], word })) : written.map((word) => ({ word }))))
      : new Set();
    if (!usable) {
      let count = -1;
      box.textContent = parts.filter(Boolean).map((part) => (/^\s+$/.test(part) ? (breaks.has(count) ? "\n\n" : part) : (count++, part))).join("");
      view.slot("unsure-note").hidden = true;
      return;
    }
    let index = 0;
    const nodes = parts.filter(Boolean).map((part) => {
      if (/^\s+$/.test(part)) return document.createTextNode(breaks.has(index - 1) ? "\n\n" : part);
      const word = timed[index++];
      const span = document.createElement("span");
      span.className = "word";
      span.textContent = part;
      if (word.start != null) span.dataset.start = String(word.start);
      if (word.p != null && word.p < UNSURE_BELOW) span.classList.add("unsure");
      spans.push(span);
      return span;
    });
    box.replaceChildren(...nodes);
    const note = view.slot("unsure-note");
    note.hidden = !spans.some((span) => span.dataset.start);
    note.textContent = spans.some((span) => span.classList.contains("unsure"))
      ? "Tap a word to listen from there. A dotted line marks words the recognizer was unsure of."
      : "Tap a word to listen from there.";
  }

  /** The last word that started at or before `time`. */
  function wordAt(time) {
    let found = -1;
    for (let i = 0; i < spans.length; i++) {
      const start = spans[i].dataset.start;
      if (start === undefined) continue;
      if (Number(start) > time) break;
      found = i;
    }
    return found;
  }

  function follow() {
    const next = wordAt(audio.currentTime);
    if (next === current) return;
    spans[current]?.classList.remove("current");
    spans[current]?.removeAttribute("aria-current");
    current = next;
    const span = spans[current];
    if (!span) return;
    span.classList.add("current");
    span.setAttribute("aria-current", "true");
    const box = span.getBoundingClientRect();
    if (!audio.paused && (box.top < 0 || box.bottom > window.innerHeight)) span.scrollIntoView({ block: "center" });
  }

  audio.addEventListener("timeupdate", follow);
  audio.addEventListener("seeked", follow);
  box.addEventListener("click", (event) => {
    const word = event.target.closest?.(".word");
    if (!word || !box.contains(word)) return;
    // A typed word plays from the word before it.
    let index = spans.indexOf(word);
    while (index > 0 && spans[index].dataset.start === undefined) index--;
    const start = spans[index]?.dataset.start;
    if (start === undefined || audio.hidden) return;
    audio.currentTime = Number(start);
    audio.play().catch(() => {});
  });

  return {
    /** Shows `nextText`; drawn again only when it or its words changed, so a redraw never interrupts following. */
    show(nextText) {
      if (nextText !== text || box.dataset.drawn !== "yes") {
        text = nextText;
        draw();
        box.dataset.drawn = "yes";
      }
      fetchWords(currentEntry());
    },
  };
}

const UNSURE_BELOW = 0.5;
const SAVE_AFTER_MS = 800;

/**
 * Editing the words in place: saved as the person types (with a visible state: saving, saved, offline and waiting),
 * what was heard kept beside them with one action to go back to it, and a question before leaving with words not
 * yet saved.
 */
function wordsEditor(view, { entry, save, closed }) {
  const form = view.form("words");
  const area = form.elements.text;
  const state = view.slot("words-state");
  let timer = null;
  let saving = null;
  let pending = false;
  let isOpen = false;

  function setState(text) {
    state.textContent = text;
  }

  async function saveNow() {
    clearTimeout(timer);
    timer = null;
    if (!pending) return saving;
    if (saving) {
      await saving;
      return saveNow();
    }
    pending = false;
    const text = area.value;
    setState("Saving…");
    saving = (async () => {
      try {
        await save(text);
        setState(pending ? "Not saved yet…" : "Saved");
      } catch (failure) {
        pending = true;
        if (isOffline(failure)) setState("Offline: your words are kept here and saved once My Day is back online.");
        else setState(`Not saved: ${failure.message}`);
      } finally {
        saving = null;
      }
    })();
    return saving;
  }

  function changed() {
    pending = true;
    setState("Not saved yet…");
    clearTimeout(timer);
    timer = setTimeout(saveNow, SAVE_AFTER_MS);
  }

  // Both stay while words wait to be saved, also once the person has gone to another screen: words typed offline
  // are saved when the network is back, and closing the tab before then asks first.
  function leaving(event) {
    if (!pending && !saving) {
      if (!form.isConnected) window.removeEventListener("beforeunload", leaving);
      return;
    }
    event.preventDefault();
    event.returnValue = "";
  }

  function online() {
    if (pending) saveNow();
    else if (!form.isConnected) window.removeEventListener("online", online);
  }

  area.addEventListener("input", changed);
  window.addEventListener("online", online);
  window.addEventListener("beforeunload", leaving);
  view.action("words-heard").addEventListener("click", () => {
    if (!confirm("Go back to the words as they were heard? Your changes to them are replaced.")) return;
    area.value = entry().transcript_raw ?? "";
    changed();
    saveNow();
  });
  view.action("words-done").addEventListener("click", async () => {
    await saveNow();
    if (pending) return;
    isOpen = false;
    form.hidden = true;
    closed();
    view.action("edit-words").focus();
  });

  return {
    get open() {
      return isOpen;
    },
    start() {
      const current = entry();
      isOpen = true;
      form.hidden = false;
      area.value = current.transcript_clean ?? "";
      view.slot("heard").textContent = current.transcript_raw ?? "";
      form.querySelector(".heard").hidden = current.kind !== "audio";
      view.action("words-heard").hidden = current.kind !== "audio";
      setState("");
      area.focus();
    },
    /** Whether words typed are not saved yet. */
    get unsaved() {
      return pending || saving !== null;
    },
    /** Saves what is waiting, before the page is left. */
    flush() {
      return saveNow();
    },
  };
}

/**
 * Suggestions from the entry's own words: a title, tags, a mood, each accepted with one tap (an ordinary edit);
 * nothing changes until then. Fetched again when the entry changed; one already in place is not offered.
 */
function suggested(view, { entry, accept }) {
  const card = view.slot("suggestions");
  const list = view.slot("suggested");
  let fetchedFor = null;
  let offered = null;
  let drawn = null;

  function draw() {
    const current = entry();
    const items = [];
    if (offered?.title && offered.title !== current.title) {
      items.push(item(`Title: “${offered.title}”`, `Use “${offered.title}” as the title`, () => ({ title: offered.title })));
    }
    const fresh = (offered?.tags ?? []).filter((tag) => !(current.tags ?? []).includes(tag));
    if (fresh.length) {
      items.push(item(`Tags: ${fresh.join(", ")}`, `Add the tags ${fresh.join(", ")}`, () => ({ tags: [...new Set([...(entry().tags ?? []), ...fresh])] })));
    }
    if (offered?.mood && offered.mood !== current.mood) {
      items.push(item(`Mood: ${offered.mood} of 5`, `Set the mood to ${offered.mood} of 5`, () => ({ mood: offered.mood })));
    }
    // Redrawn only when the offer changed, so a focused "Use" button keeps its focus through refreshes.
    const signature = items.map((row) => row.textContent).join("\n");
    if (signature === drawn) return;
    drawn = signature;
    list.replaceChildren(...items);
    card.hidden = items.length === 0;
  }

  /** `edit` is asked at the tap, so it adds to the entry as it is then. */
  function item(text, label, edit) {
    const row = document.createElement("li");
    const words = Object.assign(document.createElement("span"), { textContent: text });
    const use = Object.assign(document.createElement("button"), { type: "button", className: "secondary", textContent: "Use" });
    use.setAttribute("aria-label", label);
    use.addEventListener("click", () => accept(edit()).catch((failure) => (view.slot("error").textContent = failure.message)));
    row.append(words, use);
    return row;
  }

  return {
    async show() {
      const current = entry();
      const key = `${current.id}:${current.updated_at}`;
      if (current.status !== "transcribed" || current.no_speech) {
        card.hidden = true;
        drawn = null;
        return;
      }
      if (fetchedFor !== key) {
        fetchedFor = key;
        try {
          offered = await call("GET", `/v1/entries/${current.id}/suggestions`);
        } catch {
          fetchedFor = null;
          return;
        }
      }
      draw();
    },
  };
}

/** A waiting entry, as this browser holds it: it plays from here, and says it waits to upload. */
function localView(item, { back, backLabel, reopen }) {
  const view = fromTemplate("detail-template");
  view.action("back").textContent = backLabel;
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
  // What the server refused can be saved as a file, and then removed from this browser, which holds its only copy.
  const save = view.slot("save-recording");
  if (item.kind === "audio") {
    save.href = localAudio;
    save.download = `My Day ${wallClock(new Date(item.createdAt), item.tz).replace("T", " ").replaceAll(":", "-")}.${extensionOf(item.contentType)}`;
  }
  const remove = view.action("delete");
  remove.textContent = "Remove from this device";
  remove.addEventListener("click", async () => {
    const only = item.kind === "audio" ? "This device holds its only copy: save the recording first to keep it." : "This device holds its only copy.";
    if (!confirm(`Remove this entry the server refused? ${only}`)) return;
    if (await uploads.discard(item.id)) back();
  });

  function render(current) {
    const refused = current.state === "refused";
    const { text } = pill(current.state);
    view.slot("status").textContent = refused
      ? `Not uploaded: ${current.lastError}`
      : `${text}${text.endsWith("…") ? "" : "."} It is safe on this device until My Day's server has it.`;
    retry.hidden = !refused;
    save.hidden = !refused || item.kind !== "audio";
    remove.hidden = !refused;
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

/** The usual extension of a file of an audio container (`audio/webm` → `webm`). */
function extensionOf(contentType) {
  const extensions = {
    "audio/mp4": "m4a", "audio/wav": "wav", "audio/webm": "webm", "audio/ogg": "ogg", "audio/mpeg": "mp3",
    "audio/flac": "flac", "audio/aac": "aac",
  };
  return extensions[(contentType || "").split(";")[0]] ?? "webm";
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
