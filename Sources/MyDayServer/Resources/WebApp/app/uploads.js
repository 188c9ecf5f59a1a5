// The upload queue: every recording and typed entry waits in IndexedDB until the server confirmed it.
// Each attempt creates the entry again (same id, so exactly one entry however often it is retried),
// PUTs the audio to the signed URL and completes it. Network errors, 5xx, 429 and an expired URL are
// retried with exponential backoff and jitter; other refusals keep the item with the reason.

import * as db from "./db.js";
import { APIError, call, currentAccount } from "./api.js";

const listeners = new Set();
const progressListeners = new Set();
let running = null;
let timer = null;
/** How far each upload under way is: id → { sent, total }. */
const progress = new Map();
/** What became of each imported file this page sent: id → the server's entry, and whether it was there already. */
const imported = new Map();

/** Calls `listener` whenever the outbox changes; answers a function that stops it. */
export function onChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function changed() {
  for (const listener of listeners) listener();
}

/**
 * Calls `listener` as each upload's audio goes up (`uploadProgress`), many times a second; answers a function that
 * stops it. Apart from `onChange`, so that screens that show no progress do not redraw (or search again) for it.
 */
export function onProgress(listener) {
  progressListeners.add(listener);
  return () => progressListeners.delete(listener);
}

/** Once per page load: uploads a reload interrupted go back to the queue; work starts. */
export async function start() {
  for (const item of await db.all("outbox")) {
    if (item.state === "uploading") await db.put("outbox", { ...item, state: "queued" });
  }
  addEventListener("online", () => kick());
  changed();
  kick();
}

/** Queues a finished recording and, in the same transaction, forgets its chunks. */
export async function enqueueRecording({ id, owner, createdAt, tz, duration, blob, contentType }) {
  const item = {
    id, kind: "audio", owner: owner ?? currentAccount()?.id ?? null, createdAt, tz, duration, blob, contentType,
    size: blob.size, state: "queued", attempts: 0, nextAttemptAt: 0, lastError: null,
  };
  await db.transact(["outbox", "chunks"], [["outbox", "put", item], ["chunks", "delete", IDBKeyRange.bound([id, 0], [id, Infinity])]]);
  changed();
  kick();
}

/** The container of an audio file, by its type or else its extension; null for a file the diary does not keep. */
export function containerOf(file) {
  const byType = { "audio/mp4": "audio/mp4", "audio/x-m4a": "audio/mp4", "audio/m4a": "audio/mp4", "video/mp4": "audio/mp4",
    "audio/mpeg": "audio/mpeg", "audio/mp3": "audio/mpeg", "audio/wav": "audio/wav", "audio/x-wav": "audio/wav",
    "audio/wave": "audio/wav", "audio/ogg": "audio/ogg", "audio/opus": "audio/ogg", "audio/webm": "audio/webm",
    "video/webm": "audio/webm", "audio/flac": "audio/flac", "audio/x-flac": "audio/flac", "audio/aac": "audio/aac",
    "audio/x-aac": "audio/aac" };
  const byExtension = { m4a: "audio/mp4", mp4: "audio/mp4", mp3: "audio/mpeg", wav: "audio/wav", ogg: "audio/ogg",
    oga: "audio/ogg", opus: "audio/ogg", webm: "audio/webm", flac: "audio/flac", aac: "audio/aac" };
  const extension = file.name.includes(".") ? file.name.split(".").pop().toLowerCase() : "";
  return byExtension[extension] ?? byType[(file.type || "").split(";")[0]] ?? null;
}

/**
 * Queues an audio file someone chose or dropped, created at its modification time (the server moves it to the time its
 * tags or its name give). Answers `{ id, known }`: `known` when a file with the same bytes already waits here (the
 * server answers the entry it made of one it has). Throws for a file that is not audio the diary keeps.
 */
export async function enqueueImport(file) {
  const contentType = containerOf(file);
  if (!contentType) throw new Error("Not an audio file My Day imports (m4a, mp3, wav, ogg, opus, webm, flac, aac).");
  if (file.size === 0) throw new Error("The file is empty.");
  const digest = await crypto.subtle.digest("SHA-256", await file.arrayBuffer());
  const sourceSHA256 = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const waiting = (await pending()).find((item) => item.sourceSHA256 === sourceSHA256);
  if (waiting) return { id: waiting.id, known: true };
  const item = {
    id: newID(), kind: "audio", owner: currentAccount()?.id ?? null, createdAt: new Date(file.lastModified).toISOString(),
    tz: timeZone(), duration: 0, blob: file, contentType, size: file.size, sourceSHA256, fileName: file.name,
    state: "queued", attempts: 0, nextAttemptAt: 0, lastError: null,
  };
  await db.put("outbox", item);
  changed();
  kick();
  return { id: item.id, known: false };
}

/** Where an upload stands: `{ sent, total }` while its audio goes up, else null. */
export function uploadProgress(id) {
  return progress.get(id) ?? null;
}

/**
 * What an imported file sent from this page became: `{ entry, alreadyThere }`, or `{ error }` when the server refused
 * it; null while it is on its way.
 */
export function importResult(id) {
  return imported.get(id) ?? null;
}

export async function enqueueNote(text, createdAt = new Date()) {
  const id = newID();
  await db.put("outbox", {
    id, kind: "text", owner: currentAccount()?.id ?? null, createdAt: createdAt.toISOString(), tz: timeZone(), duration: 0, text,
    state: "queued", attempts: 0, nextAttemptAt: 0, lastError: null,
  });
  changed();
  kick();
  return id;
}

/** What waits for the signed-in account, oldest first. Another account's items stay, untouched. */
export async function pending() {
  const me = currentAccount()?.id;
  return (await db.all("outbox"))
    .filter((item) => item.owner === me)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** What waits in this browser for the server, shaped as the server's entries (`local: true`), oldest first. */
export async function pendingEntries() {
  return (await pending()).map((item) => ({
    id: item.id, created_at: item.createdAt, tz: item.tz, duration_s: item.duration, kind: item.kind,
    status: item.state, transcript_clean: item.text, tags: [], local: true,
  }));
}

/** A refused item goes back to the queue, to be tried now. */
export async function retry(id) {
  const item = await db.get("outbox", id);
  if (!item) return;
  await db.put("outbox", { ...item, state: "queued", attempts: 0, nextAttemptAt: 0, lastError: null });
  changed();
  return kick();
}

/**
 * Removes a refused item from this browser, at the person's word: the server will not take it as it is, and this
 * browser holds its only copy. Answers whether it was removed (nothing else is ever removed this way).
 */
export async function discard(id) {
  const item = await db.get("outbox", id);
  if (item?.state !== "refused") return false;
  await db.remove("outbox", id);
  changed();
  return true;
}

/** Sends what is due; one pass at a time. */
export function kick() {
  if (!running) {
    running = drain().finally(() => {
      running = null;
      schedule();
    });
  }
  return running;
}

async function drain() {
  if (!navigator.onLine) return;
  for (const item of await pending()) {
    if (item.state !== "queued" || item.nextAttemptAt > Date.now()) continue;
    if (!(await send(item))) return;
  }
}

async function schedule() {
  clearTimeout(timer);
  const waiting = (await pending()).filter((item) => item.state === "queued");
  if (waiting.length === 0) return;
  const next = Math.min(...waiting.map((item) => item.nextAttemptAt));
  timer = setTimeout(kick, Math.max(1000, next - Date.now()));
}

/** One attempt; answers false when the queue should stop (offline, or signed out). */
async function send(item) {
  await db.put("outbox", { ...item, state: "uploading" });
  changed();
  try {
    const created = await call("POST", "/v1/entries", newEntry(item));
    let entry = created.entry;
    if (entry.id !== item.id) {
      // An imported file the diary already holds (the server knew its bytes): the copy here goes.
      imported.set(item.id, { entry, alreadyThere: true });
      await db.transact(["outbox", "entries"], [["outbox", "delete", item.id], ["entries", "put", entry]]);
      changed();
      return true;
    }
    if (item.kind === "audio") {
      if (created.upload) {
        const answer = await put(created.upload, item.blob, (sent, total) => {
          progress.set(item.id, { sent, total });
          for (const listener of progressListeners) listener();
        });
        progress.delete(item.id);
        // 409: an earlier attempt of this recording (before a reload, say) stored the audio after this
        // attempt created the entry; completing below answers the stored entry.
        if (answer.status !== 409 && (answer.status < 200 || answer.status >= 300)) {
          throw new APIError(answer.status, "upload_failed", `The upload answered ${answer.status}.`, answer.retryAfter);
        }
      }
      // An imported file: the server reads when it was recorded from its tags, else its name.
      const reading = item.fileName ? { read_recording_time: true, file_name: item.fileName.slice(0, 255) } : undefined;
      if (entry.status === "pending_upload") entry = await call("POST", `/v1/entries/${item.id}/complete`, reading);
    }
    if (item.sourceSHA256) imported.set(item.id, { entry, alreadyThere: false });
    // The server has it durably: only now does the local copy go, in the same step as the synced copy arrives.
    await db.transact(["outbox", "entries"], [["outbox", "delete", item.id], ["entries", "put", entry]]);
    changed();
    return true;
  } catch (error) {
    const stillThere = await db.get("outbox", item.id);
    if (!stillThere) return true;
    if (error instanceof APIError && error.status === 401) {
      await db.put("outbox", { ...stillThere, state: "queued", lastError: "Sign in to upload." });
      changed();
      dispatchEvent(new Event("myday:session-ended"));
      return false;
    }
    if (isWorthRetrying(error)) {
      const attempts = stillThere.attempts + 1;
      const wait = backoff(attempts, error.retryAfter);
      await db.put("outbox", {
        ...stillThere, state: "queued", attempts, nextAttemptAt: Date.now() + wait, lastError: describe(error),
      });
      changed();
      return navigator.onLine;
    }
    if (stillThere.sourceSHA256) {
      // An imported file the server refused (damaged, too long) does not wait here as a recording: the import says
      // why, and the entry made for it, which never had its audio, goes for good.
      imported.set(item.id, { error: describe(error).replace(/ Upload it again\.$/, "") });
      await db.remove("outbox", item.id);
      await call("DELETE", `/v1/entries/${item.id}`).catch(() => {});
      changed();
      return true;
    }
    await db.put("outbox", { ...stillThere, state: "refused", lastError: describe(error) });
    changed();
    return true;
  }
}

/**
 * PUTs `blob` to an upload target, telling `onProgress(sent, total)` as it goes (fetch cannot say how far an upload is).
 * Answers `{ status, retryAfter }`; status 0 when the network failed.
 */
function put(target, blob, onProgress) {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open("PUT", target.url);
    for (const [name, value] of Object.entries(target.headers ?? {})) request.setRequestHeader(name, value);
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    });
    request.addEventListener("load", () =>
      resolve({ status: request.status, retryAfter: Number(request.getResponseHeader("Retry-After")) || null }));
    request.addEventListener("error", () => resolve({ status: 0, retryAfter: null }));
    request.addEventListener("abort", () => resolve({ status: 0, retryAfter: null }));
    request.send(blob);
  });
}

/** A random UUID, also where `crypto.randomUUID` is missing (older Safari). */
export function newID() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function newEntry(item) {
  const body = { id: item.id, created_at: item.createdAt, tz: item.tz, duration_s: item.duration, kind: item.kind };
  if (item.kind === "text") body.text = item.text;
  else {
    body.size_bytes = item.size;
    body.content_type = item.contentType.split(";")[0];
    body.language = navigator.language;
    if (item.sourceSHA256) body.source_sha256 = item.sourceSHA256;
  }
  return body;
}

/** 2 s after the first failure, doubling up to 10 minutes, with up to half taken off at random. */
export function backoff(attempts, retryAfterSeconds) {
  const ceiling = Math.min(600_000, 2000 * 2 ** (attempts - 1));
  return Math.max(ceiling * (1 - 0.5 * Math.random()), (retryAfterSeconds ?? 0) * 1000);
}

function isWorthRetrying(error) {
  if (!(error instanceof APIError) || error.status === 0) return true; // the network failed
  return [403, 408, 425, 429].includes(error.status) || error.status >= 500; // 403: the upload URL expired
}

function describe(error) {
  return error instanceof APIError && error.status !== 0 ? error.message : "Waiting for the connection: it is sent when you are back online.";
}

export function timeZone() {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
