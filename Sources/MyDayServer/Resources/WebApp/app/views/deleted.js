import { call, isOffline } from "../api.js";
import * as sync from "../sync.js";
import { announce, el, fromTemplate } from "../ui.js";

const DAY_MS = 86400000;

/** Brings an entry back from Recently deleted and pulls it into this browser's copy of the diary. */
export async function restoreEntry(id) {
  await call("POST", `/v1/recently-deleted/${id}/restore`);
  await sync.sync().catch(() => {});
}

/** "Deleted for good in 12 days", "… tomorrow", "… today". */
export function timeLeft(purgeAt, now = Date.now()) {
  const days = Math.floor((new Date(purgeAt).getTime() - now) / DAY_MS);
  if (days < 1) return "Deleted for good today";
  if (days === 1) return "Deleted for good tomorrow";
  return `Deleted for good in ${days} days`;
}

/**
 * Recently deleted: each entry deleted in the last 30 days with when it was made, its first words and how long it
 * stays; "Bring back" returns it to the Library, "Delete now" (asked twice) deletes it for good.
 */
export async function deletedView({ back }) {
  const view = fromTemplate("deleted-template");
  const list = view.slot("list");
  const error = view.slot("error");
  const notice = view.slot("notice");
  view.action("back").addEventListener("click", back);

  function row(item) {
    const { entry } = item;
    const made = new Intl.DateTimeFormat(undefined, { timeZone: entry.tz, dateStyle: "full", timeStyle: "short" })
      .format(new Date(entry.created_at));
    const words = entry.title || entry.transcript_clean || (entry.kind === "audio" ? "A recording" : "");
    const restore = el("button", { type: "button", class: "secondary", "data-action": "restore" }, "Bring back");
    const erase = el("button", { type: "button", class: "danger", "data-action": "erase" }, "Delete now");
    const entryRow = el("li", { class: "deleted-entry" });
    const heading = el("p", { class: "when" }, made);
    const text = el("p", { class: "words" }, words);
    const left = el("p", { class: "meta" }, timeLeft(item.purge_at));
    restore.setAttribute("aria-label", `Bring back the entry of ${made}`);
    erase.setAttribute("aria-label", `Delete the entry of ${made} now`);
    restore.addEventListener("click", () =>
      act(entryRow, async () => {
        await restoreEntry(entry.id);
        return "Brought back to the Library.";
      }));
    erase.addEventListener("click", () => {
      // The first press asks; the second deletes for good.
      if (erase.dataset.asked !== "yes") {
        erase.dataset.asked = "yes";
        erase.textContent = "Delete for good?";
        erase.setAttribute("aria-label", `Delete the entry of ${made} for good? Press again to delete it.`);
        announce("Press again to delete it for good. It cannot be brought back.");
        return;
      }
      act(entryRow, async () => {
        await call("DELETE", `/v1/recently-deleted/${entry.id}`);
        return "Deleted for good.";
      });
    });
    entryRow.append(heading, text, left, el("div", { class: "row actions" }));
    entryRow.lastElementChild.append(restore, erase);
    return entryRow;
  }

  async function act(item, action) {
    error.textContent = "";
    try {
      notice.textContent = await action();
      item.remove();
      view.slot("empty").hidden = list.children.length > 0;
    } catch (failure) {
      error.textContent = isOffline(failure) ? "You are offline: try again once My Day can reach its server." : failure.message;
    }
  }

  try {
    const { entries } = await call("GET", "/v1/recently-deleted");
    list.replaceChildren(...entries.map(row));
    view.slot("empty").hidden = entries.length > 0;
  } catch (failure) {
    error.textContent = isOffline(failure)
      ? "You are offline: Recently deleted opens when My Day can reach its server."
      : failure.message;
  }
  return { root: view.root };
}
