// One recording at a time across this browser's tabs: the tab recording holds a Web Lock for as long as it
// records, and tells the others what it is doing (recording or paused, and for how long) on a BroadcastChannel.

const LOCK = "myday-recorder";
const channel = window.BroadcastChannel ? new BroadcastChannel("myday-recording") : null;
let mine = () => null;
let heartbeat = null;
let holding = false;
// Whether this tab's last word to the others was of a recording (only then does it tell them it ended).
let recorded = false;

/**
 * Takes the right to record in this browser; answers the function that gives it back, or null while another
 * tab records. Where there are no Web Locks, every tab may record.
 */
export function claim() {
  if (!navigator.locks) return Promise.resolve(() => {});
  return new Promise((resolve, reject) => {
    navigator.locks.request(LOCK, { ifAvailable: true }, (lock) => {
      if (!lock) return resolve(null);
      holding = true;
      return new Promise((release) => resolve(() => {
        holding = false;
        release();
      }));
    }).catch(reject);
  });
}

/** Whether another tab of this browser records now (it holds the lock). */
export async function recordingElsewhere() {
  const held = (await navigator.locks?.query())?.held ?? [];
  return !holding && held.some((lock) => lock.name === LOCK);
}

/**
 * Tells the other tabs about this tab's recording: `describe()` answers `{ state, elapsed }` (seconds) or null
 * when nothing is recorded here. Call `told()` again whenever the state changes.
 */
export function share(describe) {
  mine = describe;
  channel?.addEventListener("message", (event) => {
    if (event.data?.ask) told();
  });
}

export function told() {
  const now = mine();
  clearInterval(heartbeat);
  heartbeat = now ? setInterval(told, 2000) : null;
  if (!now && !recorded) return;
  recorded = now !== null;
  channel?.postMessage(now ? { ...now, at: Date.now() } : { state: "idle" });
}

/**
 * Calls `onChange(other)` with another tab's recording as it changes: `{ state, elapsed, at }`, `{ state }`
 * before that tab has said how long, or null when no other tab records. Asks the others at once; while one
 * records, checks its lock each second, so a tab that crashed is noticed too.
 */
export function watch(onChange) {
  let other = null;
  let checking = null;
  const set = (next) => {
    other = next;
    clearInterval(checking);
    if (other) checking = setInterval(check, 1000);
    onChange(other);
  };
  async function check() {
    if (!(await recordingElsewhere())) set(null);
    else if (!other) set({ state: "recording" });
  }
  channel?.addEventListener("message", (event) => {
    const { state } = event.data ?? {};
    if (state === "idle") set(null);
    else if (state) set(event.data);
  });
  check();
  channel?.postMessage({ ask: true });
}

/** Seconds another tab has recorded by now, from what it last said. */
export function elapsedOf(other) {
  if (other?.elapsed === undefined) return null;
  return other.elapsed + (other.state === "recording" ? (Date.now() - other.at) / 1000 : 0);
}
