import { call } from "../api.js";
import * as db from "../db.js";
import { duration, fromTemplate, pill } from "../ui.js";

/** One entry: the clean transcript (the original on demand), the audio, edits, retry and delete. */
export async function detailView(id, { back }) {
  const view = fromTemplate("detail-template");
  const error = view.slot("error");
  const original = view.action("original");
  let entry = (await db.get("entries", id)) ?? (await call("GET", `/v1/entries/${id}`));
  let showingOriginal = false;

  function render() {
    const date = new Date(entry.created_at);
    const day = new Intl.DateTimeFormat(undefined, { timeZone: entry.tz, dateStyle: "full" }).format(date);
    const time = new Intl.DateTimeFormat(undefined, { timeZone: entry.tz, timeStyle: "short" }).format(date);
    view.slot("title").textContent = entry.title || day;
    const when = entry.title ? `${day}, ${time}` : time;
    view.slot("meta").textContent = entry.kind === "audio" ? `${when} · ${duration(entry.duration_s)}` : when;
    const status = pill(entry.status);
    view.slot("status").textContent = status ? (entry.failure_reason ? `${status.text}: ${entry.failure_reason}` : status.text) : "";
    const text = showingOriginal ? entry.transcript_raw : entry.transcript_clean;
    view.slot("transcript").textContent = entry.no_speech ? "No speech was heard in this recording." : (text ?? "");
    original.hidden = entry.kind !== "audio" || !entry.transcript_raw;
    original.textContent = showingOriginal ? "Show clean text" : "Show original";
    original.setAttribute("aria-pressed", String(showingOriginal));
    view.action("retry").hidden = entry.status !== "failed";
    view.action("retranscribe").hidden = entry.kind !== "audio" || entry.status !== "transcribed";
    const form = view.form("edit");
    form.elements.title.value = entry.title ?? "";
    form.elements.tags.value = (entry.tags ?? []).join(", ");
    form.elements.mood.value = String(entry.mood ?? 0);
  }

  async function loadAudio() {
    if (entry.kind !== "audio" || entry.status === "pending_upload") return;
    const audio = view.slot("audio");
    const link = await call("GET", `/v1/entries/${id}/audio`);
    // Browsers' own WebM recordings carry no duration: seek far ahead once, so the player learns it
    // (and seeking works), then come back to the start.
    audio.addEventListener("loadedmetadata", () => {
      if (audio.duration !== Infinity) return;
      audio.addEventListener("durationchange", () => (audio.currentTime = 0), { once: true });
      audio.currentTime = 1e101;
    }, { once: true });
    audio.src = link.url;
    audio.hidden = false;
  }

  async function saved(next) {
    entry = next;
    await db.put("entries", entry);
    render();
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
  view.form("edit").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    const tags = form.elements.tags.value.split(",").map((tag) => tag.trim()).filter(Boolean);
    try {
      await saved(await call("PATCH", `/v1/entries/${id}`, { title: form.elements.title.value.trim(), tags, mood: Number(form.elements.mood.value) }));
      error.textContent = "";
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

  render();
  loadAudio().catch((failure) => (error.textContent = failure.message));
  return view.root;
}
