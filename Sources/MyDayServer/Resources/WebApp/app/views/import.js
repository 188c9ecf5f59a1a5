import * as uploads from "../uploads.js";
import { announce, el, fromTemplate } from "../ui.js";

/**
 * Import recordings: audio files chosen or dropped are queued oldest first, each shown with how far it is (read,
 * waiting, sent with a progress bar) and what it became: an entry of the moment it was recorded (a link to it), one
 * already in the diary, or the reason it was not imported.
 */
export function importView({ back, open }) {
  const view = fromTemplate("import-template");
  const list = view.slot("list");
  const summary = view.slot("summary");
  const drop = view.slot("drop");
  const input = view.slot("files-input");
  view.action("back").addEventListener("click", back);
  /** id → the row of a file that is queued; the rows of files refused before queueing keep no id. */
  const rows = new Map();

  input.addEventListener("change", () => {
    importFiles([...input.files]);
    input.value = "";
  });
  drop.addEventListener("dragover", (event) => {
    event.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    importFiles([...event.dataTransfer.files]);
  });
  const redraw = () => rows.forEach(show);
  const stopListening = [uploads.onChange(redraw), uploads.onProgress(redraw)];

  async function importFiles(files) {
    // Oldest first, so they are sent (and transcribed) in the order they were made.
    files.sort((a, b) => a.lastModified - b.lastModified);
    const pending = files.map((file) => {
      const row = el("li", { class: "import-row" });
      row.append(el("span", { class: "name" }, file.name), el("span", { class: "state" }, "Reading…"));
      list.append(row);
      return { file, row };
    });
    for (const { file, row } of pending) {
      try {
        const { id, known } = await uploads.enqueueImport(file);
        row.dataset.id = id;
        row.dataset.known = known ? "yes" : "no";
        rows.set(id, row);
        show(row, id);
      } catch (failure) {
        setState(row, `Not imported: ${failure.message}`, "failed");
      }
    }
    tell();
  }

  /** Redraws the row of the file queued as `id` from what the upload queue knows of it. */
  async function show(row, id) {
    if (row.dataset.done === "yes") return;
    const result = uploads.importResult(id);
    const going = uploads.uploadProgress(id);
    if (result?.error) return setState(row, `Not imported: ${result.error}`, "failed", true);
    if (result?.entry) return finished(row, result);
    if (going) {
      setState(row, `Sending… ${Math.floor((going.sent * 100) / going.total)}%`);
      const bar = row.querySelector("progress") ?? row.appendChild(el("progress", { max: "100" }));
      bar.value = Math.floor((going.sent * 100) / going.total);
      bar.setAttribute("aria-label", `${row.querySelector(".name").textContent} sent`);
      return;
    }
    const waiting = (await uploads.pending()).find((item) => item.id === id);
    // The file may have ended while the queue was read: what was read then is stale.
    if (row.dataset.done === "yes") return;
    if (waiting?.state === "refused") return setState(row, `Not imported: ${waiting.lastError}`, "failed", true);
    if (waiting) setState(row, row.dataset.known === "yes" ? "Already waiting to be sent" : "Waiting to be sent");
  }

  function finished(row, { entry, alreadyThere }) {
    if (row.dataset.done === "yes") return;
    row.dataset.done = "yes";
    row.querySelector("progress")?.remove();
    const when = new Intl.DateTimeFormat(undefined, { timeZone: entry.tz, dateStyle: "long", timeStyle: "short" })
      .format(new Date(entry.created_at));
    setState(row, alreadyThere ? "Already in your diary: " : "In your diary: ", alreadyThere ? "known" : "done");
    const link = el("a", { href: `#/entry/${entry.id}` }, when);
    link.addEventListener("click", (event) => {
      event.preventDefault();
      open(entry.id);
    });
    row.querySelector(".state").append(link);
    tell();
  }

  function setState(row, text, kind = "", ended = false) {
    const state = row.querySelector(".state");
    state.textContent = text;
    state.className = `state ${kind}`.trim();
    if (ended) {
      row.dataset.done = "yes";
      row.querySelector("progress")?.remove();
      tell();
    }
  }

  /** The one-line account of every file chosen so far, said to screen readers once all have ended. */
  function tell() {
    const all = [...list.children];
    const ended = all.filter((row) => row.dataset.done === "yes" || row.querySelector(".state.failed"));
    const added = all.filter((row) => row.querySelector(".state.done")).length;
    const known = all.filter((row) => row.querySelector(".state.known")).length;
    const failed = all.filter((row) => row.querySelector(".state.failed")).length;
    const text = `${added} imported, ${known} already in your diary, ${failed} not imported` +
      (ended.length < all.length ? `; ${all.length - ended.length} on the way.` : ".");
    if (summary.textContent !== text) summary.textContent = text;
    if (ended.length === all.length && all.length > 0) announce(text);
  }

  return { root: view.root, leave: () => stopListening.forEach((stop) => stop()) };
}
