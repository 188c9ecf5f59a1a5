import { call, config, currentAccount } from "../api.js";
import { elapsedOf, share, told, watch } from "../elsewhere.js";
import * as sync from "../sync.js";
import * as uploads from "../uploads.js";
import { HOLD_MS, wireHold } from "../hold.js";
import { Recording } from "../recorder.js";
import { recoveredMessage } from "../recovery.js";
import { announce, duration, el, fromTemplate, localDay, momentOf, wallClock } from "../ui.js";
import { Waveform } from "../waveform.js";
import { entryRow } from "./library.js";
import { recordingBar } from "./recording-bar.js";

const RING = 2 * Math.PI * 56;
const HINT_SHOWN = "myday.stopHintShown";
export const QUESTION_ON = "myday.question.on";
const QUESTION_DISMISSED = "myday.question.dismissed";
/** Words being typed on Home, kept in this browser for their account until saved or cancelled. */
const TYPED_DRAFT = "myday.typedDraft";

/**
 * Home: the record button, the waveform, elapsed time, "Type instead", today's entries with their state, and what
 * waits to upload from earlier days. Made
 * once and kept, so a recording goes on while another screen is open, shown there by the bar under
 * the header (`bar`). While another tab records, Home shows that recording instead of the record button.
 */
export function homeView({ bar, goHome, openDay, openEntry }) {
  const view = fromTemplate("home-template");
  const button = view.slot("record");
  const ring = view.slot("ring");
  const elapsed = view.slot("elapsed");
  const status = view.slot("status");
  const hint = view.slot("hint");
  const stop = view.action("stop");
  const resume = view.action("resume");
  const discard = view.action("discard");
  const elsewhere = view.slot("elsewhere");
  const typed = view.form("typed");
  const waveform = new Waveform(view.slot("waveform"));
  let recording = null;
  let state = "idle";
  let busy = false;
  let frame = null;
  // Set while a press on the button has paused the recording until it is known to be a tap or a hold.
  let pressPaused = false;
  // Another tab's recording, as it last said (elsewhere.js), while it records.
  let other = null;
  let drawingOther = null;
  let discardArmed = false;
  const showBar = recordingBar(bar, { onHome: goHome, onPause: tap, onStop: () => finish() });

  function updateBar() {
    showBar(view.root.isConnected || !recording ? "idle" : state, recording?.elapsed() ?? 0);
  }

  function setRing(progress) {
    ring.style.setProperty("stroke-dashoffset", String(RING * (1 - progress)));
  }

  function show(next, spoken) {
    state = next;
    view.root.dataset.state = next;
    const labels = {
      idle: "Record", recording: "Recording — tap to pause", paused: "Recording paused — tap to resume", saving: "Recording — saving",
      elsewhere: "Recording in another tab",
    };
    button.setAttribute("aria-label", labels[next]);
    stop.hidden = !(next === "recording" || next === "paused");
    stop.textContent = next === "paused" ? "Save" : "Stop";
    resume.hidden = discard.hidden = next !== "paused";
    armDiscard(false);
    view.action("type").hidden = !(next === "idle" || next === "elsewhere");
    elsewhere.hidden = next !== "elsewhere";
    clearInterval(drawingOther);
    if (next === "elsewhere") drawingOther = setInterval(drawOther, 500);
    drawOther();
    updateBar();
    if (next !== "elsewhere") told();
    if (spoken) {
      status.textContent = spoken;
      announce(spoken);
    }
  }

  /** What this tab records, for the others. */
  share(() => {
    if (!recording) return null;
    return { state: state !== "saving" && recording.paused ? "paused" : state, elapsed: recording.elapsed() };
  });

  function drawOther() {
    if (state !== "elsewhere") return;
    const what = { paused: "Recording paused in another tab", saving: "Saving a recording in another tab" }[other?.state] ?? "Recording in another tab";
    const seconds = elapsedOf(other);
    elsewhere.textContent = seconds === null || other.state === "saving" ? what : `${what} — ${duration(seconds)}`;
  }

  watch((next) => {
    other = next;
    if (other && state === "idle") {
      show("elsewhere");
      status.textContent = "";
      announce("Recording in another tab");
    } else if (!other && state === "elsewhere") {
      show("idle");
      announce("Ready to record");
    } else drawOther();
  });

  // The server keeps recordings of up to `max_recording_seconds` (GET /v1/config; unknown offline): a recording says
  // so a minute before, then stops and is saved just short of it (the timer ticks once a second, and the file may be a
  // fraction longer than the clock said), rather than be refused once it is longer. The timer keeps running while the
  // tab is not shown.
  const stopsShortBy = 2;
  let longest = null;
  config().then((answer) => (longest = answer.max_recording_seconds ?? null), () => {});
  let lengthCheck = null;
  function watchLength() {
    clearInterval(lengthCheck);
    let warned = false;
    lengthCheck = setInterval(() => {
      if (!recording || state === "saving") return clearInterval(lengthCheck);
      if (!longest) return;
      const left = longest - recording.elapsed();
      if (left <= stopsShortBy) {
        clearInterval(lengthCheck);
        finish(`Stopped: My Day keeps recordings of up to ${duration(longest)}`);
      } else if (left <= 60 && !warned) {
        warned = true;
        status.textContent = `One minute left: My Day keeps recordings of up to ${duration(longest)}.`;
        announce(status.textContent);
      }
    }, 1000);
  }

  let frames = 0;
  function animate() {
    if (!recording) return;
    view.root.dataset.frames = String(++frames);
    elapsed.textContent = duration(recording.elapsed());
    waveform.push(recording.paused ? 0 : recording.level());
    waveform.draw();
    updateBar();
    frame = requestAnimationFrame(animate);
  }

  async function tap() {
    if (busy) return;
    busy = true;
    try {
      if (state === "idle") await begin();
      else if (state === "recording" && pressPaused) {
        pressPaused = false;
        show("paused", "Paused");
      } else if (state === "recording") {
        recording.pause();
        show("paused", "Paused");
      } else if (state === "paused") await goOn();
    } finally {
      busy = false;
    }
  }

  async function goOn() {
    try {
      await recording.resume();
    } catch (error) {
      status.textContent = `The microphone could not be opened again (${error?.message ?? error}). Save keeps what was recorded.`;
      announce(status.textContent);
      return;
    }
    show("recording", "Recording");
  }

  function microphone(open) {
    if (open || state !== "paused") return;
    status.textContent = "Paused — the microphone is off until you resume";
    announce(status.textContent);
  }

  async function begin() {
    try {
      recording = await Recording.start({ onEnded: () => finish(), onMicrophone: microphone });
    } catch (error) {
      const messages = {
        InUseElsewhere: "A recording is under way in another tab: stop it there to record here.",
        NotAllowedError: "My Day cannot use the microphone. Allow it in the browser's site settings, or type instead.",
        SecurityError: "My Day cannot use the microphone. Allow it in the browser's site settings, or type instead.",
        NotFoundError: "No microphone was found. You can type instead.",
        NotReadableError: "The microphone is busy in another app. Close it and try again, or type instead.",
      };
      status.textContent = messages[error?.name] ?? `Recording is not available here (${error?.message ?? error}). You can type instead.`;
      announce(status.textContent);
      return;
    }
    if (!localStorage.getItem(HINT_SHOWN)) {
      hint.hidden = false;
      localStorage.setItem(HINT_SHOWN, "1");
    }
    show("recording", "Recording");
    animate();
    watchLength();
  }

  /** Stops and saves the recording; `why` says why when it was not the person who stopped it. */
  async function finish(why) {
    if (!recording || busy) return;
    busy = true;
    pressPaused = false;
    const current = recording;
    show("saving");
    try {
      const finished = await current.stop();
      recording = null;
      cancelAnimationFrame(frame);
      await uploads.enqueueRecording(finished);
      current.done();
      clear();
      show("idle", why ? `${why}. Saved.` : "Saved");
    } catch (error) {
      show("idle", `The recording could not be saved: ${error.message}. It is kept and will be recovered.`);
      setRing(0);
    } finally {
      busy = false;
      settleFocus();
    }
  }

  async function throwAway() {
    if (!recording || busy) return;
    busy = true;
    pressPaused = false;
    const current = recording;
    try {
      await current.discard();
      recording = null;
      cancelAnimationFrame(frame);
      clear();
      show("idle", "Recording discarded");
    } finally {
      busy = false;
      settleFocus();
    }
  }

  function clear() {
    hint.hidden = true;
    elapsed.textContent = "0:00";
    waveform.clear();
    setRing(0);
  }

  /** After a recording ends, focus that was on a control now gone goes to the record button (or the screen). */
  function settleFocus() {
    const active = document.activeElement;
    const gone = !active || active === document.body || !active.isConnected || active.getClientRects().length === 0;
    if (!gone) return;
    if (view.root.isConnected) button.focus();
    else document.getElementById("view").focus({ preventScroll: true });
  }

  function armDiscard(on) {
    discardArmed = on;
    discard.textContent = on ? "Discard for good?" : "Discard";
    discard.classList.toggle("armed", on);
  }

  // A press pauses the recording at once, so a hold that stops it is not part of it; a tap or a hold
  // let go early resumes it (a recording paused before the press stays paused).
  wireHold(button, {
    onTap: tap,
    onStop: () => finish(),
    onProgress: setRing,
    canHold: () => state === "recording" || state === "paused",
    onPress: () => {
      if (state !== "recording" || recording.paused) return;
      recording.pause();
      pressPaused = true;
    },
    onLetGo: () => {
      if (!pressPaused) return;
      pressPaused = false;
      goOn();
    },
  });
  stop.addEventListener("click", () => finish());
  resume.addEventListener("click", tap);
  // Discarding asks twice: the first press turns the button into the question; moving away takes it back.
  discard.addEventListener("click", () => {
    if (discardArmed) return throwAway();
    armDiscard(true);
    announce("Press again to discard the recording for good");
  });
  discard.addEventListener("blur", () => armDiscard(false));
  addEventListener("pointerdown", (event) => {
    if (discardArmed && !discard.contains(event.target)) armDiscard(false);
  });
  // Closing or reloading the page mid-recording asks first (what was recorded so far is kept either way).
  addEventListener("beforeunload", (event) => {
    if (recording) event.preventDefault();
  });
  addEventListener("keydown", (event) => {
    if (!view.root.isConnected) return;
    if (event.key === " " && (event.target === document.body || event.target === document.getElementById("view"))) {
      event.preventDefault();
      tap();
    }
  });

  const typedError = view.slot("typed-error");
  function typing(on) {
    view.root.dataset.mode = on ? "typing" : "recording";
    typed.hidden = !on;
    typedError.textContent = "";
    typed.elements.text.removeAttribute("aria-invalid");
  }
  let openedAt = "";
  view.action("type").addEventListener("click", () => {
    typing(true);
    openedAt = wallClock(new Date(), uploads.timeZone());
    typed.elements.when.value = openedAt;
    status.textContent = "";
    typed.elements.text.focus();
  });
  view.action("cancel-typing").addEventListener("click", () => {
    localStorage.removeItem(TYPED_DRAFT);
    typing(false);
  });
  // What is typed is kept as it is typed: a reload, a closed tab or a session ended elsewhere loses none of it.
  function keepDraft() {
    const owner = currentAccount()?.id;
    const text = typed.elements.text.value;
    if (owner && text.trim()) localStorage.setItem(TYPED_DRAFT, JSON.stringify({ owner, text, when: typed.elements.when.value }));
    else localStorage.removeItem(TYPED_DRAFT);
  }
  typed.elements.text.addEventListener("input", () => {
    typedError.textContent = "";
    typed.elements.text.removeAttribute("aria-invalid");
    keepDraft();
  });
  typed.elements.when.addEventListener("change", keepDraft);
  typed.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = typed.elements.text.value.trim();
    if (!text) {
      typedError.textContent = "Write something first: an empty entry is not saved.";
      typed.elements.text.setAttribute("aria-invalid", "true");
      typed.elements.text.focus();
      return;
    }
    // Written about another day: the entry belongs to that day; never to one that has not come yet.
    const when = typed.elements.when.value;
    const at = when && when !== openedAt ? momentOf(when, uploads.timeZone()) : new Date();
    if (at.getTime() > Date.now() + 60_000) {
      typedError.textContent = "That time has not come yet: choose one that has.";
      typed.elements.when.setAttribute("aria-invalid", "true");
      typed.elements.when.focus();
      return;
    }
    typed.elements.when.removeAttribute("aria-invalid");
    await uploads.enqueueNote(text, at);
    localStorage.removeItem(TYPED_DRAFT);
    typed.elements.text.value = "";
    typing(false);
    status.textContent = "Saved";
    announce(status.textContent);
  });

  // Today: this day's entries, newest first, each with its state (waiting, uploading, transcribing, or its words).
  /** Whether a moment (ISO 8601) made in `tz` falls on today, as the Library groups days. */
  function isToday(createdAt, tz) {
    const zone = uploads.timeZone();
    return localDay(new Date(createdAt), tz || zone) === localDay(new Date(), zone);
  }

  const todayList = view.slot("today-list");
  let todayShown = "";
  async function showToday() {
    const zone = uploads.timeZone();
    const waiting = (await uploads.pendingEntries()).filter((entry) => isToday(entry.created_at, entry.tz));
    const known = new Set(waiting.map((entry) => entry.id));
    const synced = (await sync.entries()).filter((entry) => isToday(entry.created_at, entry.tz) && !known.has(entry.id));
    const entries = [...waiting, ...synced].sort((a, b) => b.created_at.localeCompare(a.created_at));
    // Drawn again only when something shown changed: a redraw under a finger would lose the tap.
    const signature = JSON.stringify(entries.map((entry) => [entry.id, entry.status, entry.transcription_percent, entry.needs_review, entry.title, entry.transcript_clean, entry.tags, entry.mood]));
    if (signature === todayShown) return;
    todayShown = signature;
    todayList.replaceChildren(...entries.map((entry) => entryRow(entry, { zone: entry.tz || zone, open: openEntry })));
    view.slot("today").hidden = entries.length === 0;
  }

  const pending = view.slot("pending");
  async function showPending() {
    const items = (await uploads.pending()).filter((item) => !isToday(item.createdAt, item.tz));
    pending.replaceChildren(
      ...items.map((item) => {
        const row = el("li", { "data-id": item.id, "data-state": item.state });
        const label = item.kind === "audio" ? `Recording, ${duration(item.duration)}` : "Typed entry";
        const what = { queued: "Waiting to upload", uploading: "Uploading…", refused: `Failed — ${item.lastError}` }[item.state];
        row.append(el("span", {}, label), el("span", { class: "meta" }, what ?? item.state));
        return row;
      }),
    );
  }
  uploads.onChange(() => Promise.all([showPending(), showToday()]));
  showPending();
  showToday();

  // On this day: the entries of the same date a week, a month and each year before, shown when there are some.
  const memories = view.slot("memories");
  const headings = { week: ["A week ago", "weeks ago"], month: ["A month ago", "months ago"], year: ["1 year ago", "years ago"] };
  let memoriesShown = "";
  async function showMemories() {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    let answer;
    try {
      answer = await call("GET", `/v1/me/on-this-day?tz=${encodeURIComponent(zone)}`);
    } catch {
      return; // Offline or refused: the section keeps what it showed.
    }
    // Drawn again only when something changed: a redraw under a finger about to tap would lose the tap.
    const signature = JSON.stringify(answer.days.map((day) => [day.date, day.entries.map((entry) => [entry.id, entry.title, entry.transcript_clean])]));
    if (signature === memoriesShown) return;
    memoriesShown = signature;
    memories.replaceChildren(...answer.days.map((day) => {
      const [one, many] = headings[day.ago.unit];
      const heading = day.ago.count === 1 ? one : `${day.ago.count} ${many}`;
      const first = day.entries[0];
      const words = first.title || first.transcript_clean || (first.kind === "audio" ? "A recording" : "");
      const link = el("a", { href: `#/day/${day.date}` });
      link.append(
        el("strong", {}, heading),
        el("span", { class: "meta" }, words.length > 120 ? `${words.slice(0, 119)}…` : words),
      );
      link.addEventListener("click", (event) => {
        event.preventDefault();
        openDay(day.date);
      });
      const item = el("li");
      item.append(link);
      return item;
    }));
    view.slot("on-this-day").hidden = answer.days.length === 0;
  }
  showMemories();

  // The gentle question: off until turned on in Profile (on this browser), at most one a day, "Not today" puts it away.
  const questionCard = view.slot("question");
  async function showQuestion() {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const today = localDay(new Date(), zone);
    if (localStorage.getItem(QUESTION_ON) !== "yes" || localStorage.getItem(QUESTION_DISMISSED) === today) {
      questionCard.hidden = true;
      return;
    }
    try {
      const question = await call("GET", `/v1/me/question?tz=${encodeURIComponent(zone)}`);
      view.slot("question-text").textContent = question?.text ?? "";
      questionCard.hidden = !question;
    } catch {
      // Offline or refused: no question.
    }
  }
  view.action("dismiss-question").addEventListener("click", () => {
    localStorage.setItem(QUESTION_DISMISSED, localDay(new Date(), Intl.DateTimeFormat().resolvedOptions().timeZone));
    questionCard.hidden = true;
    button.focus();
  });
  showQuestion();
  typing(false);
  show("idle");
  // Words the account was typing when the page last closed come back, as they were; another account's stay hidden.
  const draft = JSON.parse(localStorage.getItem(TYPED_DRAFT) ?? "null");
  if (draft && draft.owner === currentAccount()?.id) {
    typing(true);
    openedAt = wallClock(new Date(), uploads.timeZone());
    typed.elements.text.value = draft.text;
    typed.elements.when.value = draft.when || openedAt;
    status.textContent = "What you were typing is back: save it, or cancel.";
  }
  ring.style.setProperty("stroke-dasharray", String(RING));
  setRing(0);
  view.root.dataset.holdMs = String(HOLD_MS);
  async function update() {
    await Promise.all([showPending(), showToday(), showMemories(), showQuestion()]);
  }
  /** Says which recordings a closed tab or a crash left, now saved. */
  function recovered(recordings) {
    if (recordings.length === 0) return;
    status.textContent = recordings.map(recoveredMessage).join(". ");
    announce(status.textContent);
  }
  return { root: view.root, update, shown: updateBar, recovered };
}
