// The record button's gestures: a tap starts, pauses and resumes; holding ~3 s stops, with a ring
// that fills during the hold and empties when released early. Keyboard: Space taps, holding Escape
// 3 s stops.

export const HOLD_MS = 3000;
const TAP_MS = 300;

/**
 * Wires `button`: `onTap()` for a tap, `onStop()` when a hold completes, `onProgress(0…1)` while
 * holding, `canHold()` tells whether a hold means anything now (a recording is under way). While a
 * recording is under way, `onPress()` comes as a press begins (before it is known to be a tap or a
 * hold) and `onLetGo()` when a press ends as neither a tap nor a completed hold.
 */
export function wireHold(button, { onTap, onStop, onProgress, canHold, onPress = () => {}, onLetGo = () => {} }) {
  let began = null;
  let frame = null;
  let holding = false;

  function tick() {
    if (began === null) return;
    const progress = Math.min(1, (performance.now() - began) / HOLD_MS);
    onProgress(progress);
    if (progress >= 1) {
      began = null;
      holding = false;
      onStop();
      onProgress(0);
      return;
    }
    frame = requestAnimationFrame(tick);
  }

  function press() {
    began = performance.now();
    holding = canHold();
    if (!holding) return;
    onPress();
    frame = requestAnimationFrame(tick);
  }

  function release() {
    if (began === null) return;
    const held = performance.now() - began;
    began = null;
    cancelAnimationFrame(frame);
    onProgress(0);
    if (held < TAP_MS || !holding) onTap();
    else onLetGo();
    holding = false;
  }

  function cancel() {
    if (began === null) return;
    began = null;
    cancelAnimationFrame(frame);
    onProgress(0);
    if (holding) onLetGo();
    holding = false;
  }

  button.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    button.setPointerCapture(event.pointerId);
    press();
  });
  button.addEventListener("pointerup", release);
  button.addEventListener("pointercancel", cancel);
  button.addEventListener("contextmenu", (event) => event.preventDefault());
  // Space and Enter on the focused button, and assistive technology, send a click with no pointer count.
  button.addEventListener("click", (event) => {
    if (event.detail === 0) onTap();
  });
  addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || event.repeat || !canHold() || !button.isConnected) return;
    event.preventDefault();
    press();
  });
  addEventListener("keyup", (event) => {
    if (event.key === "Escape" && began !== null) cancel();
  });
}
