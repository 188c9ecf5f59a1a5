// Keeps the screen on while the microphone is open (Screen Wake Lock API). Where the browser has no
// wake lock, or refuses one (battery saver, a hidden page), recording goes on as usual.

let wanted = false;
let sentinel = null;
let taking = null;

/** Asks for the screen to stay on (`true`) or lets it sleep again (`false`). */
export function keepAwake(on) {
  wanted = on;
  if (on) take();
  else drop();
}

function take() {
  if (taking || (sentinel && !sentinel.released) || !navigator.wakeLock || document.visibilityState !== "visible") return;
  taking = navigator.wakeLock.request("screen")
    .then((granted) => {
      sentinel = granted;
      if (!wanted) drop();
    })
    .catch(() => {})
    .finally(() => (taking = null));
}

function drop() {
  sentinel?.release().catch(() => {});
  sentinel = null;
}

/** The browser lets go of the lock when the page is hidden: it is taken again when the page shows. */
document.addEventListener("visibilitychange", () => {
  if (wanted) take();
});
