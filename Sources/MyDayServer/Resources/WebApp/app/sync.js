// Delta sync: the server's changes since the last cursor, page by page, into IndexedDB.

import * as db from "./db.js";
import { call } from "./api.js";

let running = null;
let again = null;

/**
 * Pulls every change; answers the number of pages. One pull at a time: asked during one, it pulls
 * once more after it (so no change is missed), however often it was asked meanwhile.
 */
export function sync() {
  if (!running) {
    running = pull().finally(() => (running = null));
    return running;
  }
  again ??= running.catch(() => {}).then(() => {
    again = null;
    return sync();
  });
  return again;
}

async function pull() {
  let cursor = (await db.get("state", "cursor")) ?? null;
  let pages = 0;
  for (;;) {
    const query = cursor === null ? "?limit=200" : `?since=${encodeURIComponent(cursor)}&limit=200`;
    const page = await call("GET", `/v1/entries${query}`);
    const changes = [
      ...page.entries.map((entry) => ["entries", "put", entry]),
      ...page.deleted_ids.map((id) => ["entries", "delete", id]),
    ];
    await db.transact(["entries"], changes);
    cursor = page.next_cursor;
    await db.put("state", cursor, "cursor");
    pages++;
    if (!page.has_more) return pages;
  }
}

/** The synced entries, newest first. */
export async function entries() {
  return (await db.all("entries")).sort((a, b) => b.created_at.localeCompare(a.created_at));
}
