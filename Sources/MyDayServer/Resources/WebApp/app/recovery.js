// Recordings a closed tab or a crash left behind, turned into recordings again and told about.

import * as db from "./db.js";
import { duration } from "./ui.js";

/**
 * Recordings a closed tab or a crash left as chunks, answered whole so they can be queued. A recording
 * another open tab is still making holds its lock and is left alone.
 */
export async function recoverInterrupted() {
  const held = new Set(((await navigator.locks?.query())?.held ?? []).map((lock) => lock.name));
  const byID = new Map();
  for (const chunk of await db.all("chunks")) {
    if (held.has(`myday-recording-${chunk.id}`)) continue;
    if (!byID.has(chunk.id)) byID.set(chunk.id, []);
    byID.get(chunk.id).push(chunk);
  }
  const recovered = [];
  for (const [id, chunks] of byID) {
    chunks.sort((a, b) => a.seq - b.seq);
    const last = chunks[chunks.length - 1].meta;
    const blob = await db.joinedChunks(chunks, last.contentType);
    recovered.push({ id, owner: last.owner, createdAt: last.createdAt, tz: last.tz, duration: last.elapsed, blob, contentType: last.contentType });
  }
  return recovered;
}

/** What to say of a recovered recording: "A recording of 3:12 from 21:40 was saved". */
export function recoveredMessage(recording) {
  const time = new Intl.DateTimeFormat(undefined, { timeZone: recording.tz || undefined, timeStyle: "short" }).format(new Date(recording.createdAt));
  return `A recording of ${duration(recording.duration)} from ${time} was saved`;
}
