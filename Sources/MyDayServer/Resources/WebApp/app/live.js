// Live updates: the server's change feed (GET /v1/events, server-sent events carrying the account's
// change sequence, nothing private) read with fetch, because EventSource cannot send the access token.
// Each change calls `onChange`; while the feed cannot be had, `onChange` runs every 15 s instead.

import { stream } from "./api.js";

const POLL_MS = 15_000;
const LONGEST_WAIT_MS = 60_000;

let running = null;

/**
 * Answers a function to feed server-sent event text into, in pieces as they arrive; it calls
 * `onEvent({ event, data })` for each complete event. Comment lines (": keep-alive") are skipped.
 */
export function eventParser(onEvent) {
  let buffer = "";
  let event = "";
  let data = [];
  return (text) => {
    buffer += text;
    const lines = buffer.split("\n");
    buffer = lines.pop();
    for (const raw of lines) {
      const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
      if (line === "") {
        if (data.length > 0) onEvent({ event: event || "message", data: data.join("\n") });
        event = "";
        data = [];
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
  };
}

/**
 * Follows the change feed until `stop()`: `onChange()` once at the start and after every change.
 * `onState("live" | "polling")` tells which of the two keeps the screens up to date.
 */
export function start(onChange, onState = () => {}) {
  stop();
  const controller = new AbortController();
  const { signal } = controller;
  let seen = null;
  let failures = 0;
  let following = false;
  let poller = null;
  let retry = null;
  running = controller;

  const polling = (on) => {
    clearInterval(poller);
    poller = on ? setInterval(onChange, POLL_MS) : null;
    if (!signal.aborted) onState(on ? "polling" : "live");
  };
  const changed = (seq) => {
    if (seq !== null && seq === seen) return;
    seen = seq;
    onChange();
  };
  const wake = () => {
    clearTimeout(retry);
    follow();
  };
  addEventListener("online", wake);
  signal.addEventListener("abort", () => {
    removeEventListener("online", wake);
    clearTimeout(retry);
    polling(false);
  });

  async function follow() {
    if (following || signal.aborted) return;
    following = true;
    let heard = false;
    try {
      const response = await stream("/v1/events", signal);
      const parse = eventParser(({ event, data }) => {
        if (event !== "change") return;
        heard = true;
        failures = 0;
        polling(false);
        changed(JSON.parse(data).change_seq ?? null);
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parse(value);
      }
    } catch {
      // Offline, an older server without the feed, an error: polled below until it can be had.
    } finally {
      following = false;
    }
    if (signal.aborted) return;
    if (!heard) {
      if (failures === 0) {
        changed(null);
        polling(true);
      }
      failures += 1;
    }
    // A feed ends when its access token does: open it again at once, with a fresh token. After
    // failures, wait 1 s, 2 s, 4 s… up to a minute.
    retry = setTimeout(follow, failures === 0 ? 0 : Math.min(LONGEST_WAIT_MS, 1000 * 2 ** (failures - 1)));
  }

  follow();
}

/** Stops following the change feed (sign-out). */
export function stop() {
  running?.abort();
  running = null;
}
