import { duration } from "../ui.js";

/**
 * The bar under the header that shows a recording under way while another screen is open: its
 * elapsed time, the way back to Home, pause or resume, and stop (Save while paused). Answers `show(state, seconds)`,
 * where `state` is "recording", "paused", "saving" or "idle" (hidden).
 */
export function recordingBar(root, { onHome, onPause, onStop }) {
  const slot = (name) => root.querySelector(`[data-slot="${name}"]`);
  const action = (name) => root.querySelector(`[data-action="${name}"]`);
  action("home").addEventListener("click", onHome);
  action("pause").addEventListener("click", onPause);
  action("stop").addEventListener("click", onStop);

  return function show(state, seconds) {
    root.hidden = state === "idle";
    if (root.hidden) return;
    root.dataset.state = state;
    slot("recording-state").textContent = { recording: "Recording", paused: "Paused", saving: "Saving…" }[state];
    slot("recording-elapsed").textContent = duration(seconds);
    action("pause").textContent = state === "paused" ? "Resume" : "Pause";
    action("stop").textContent = state === "paused" ? "Save" : "Stop";
    action("pause").disabled = action("stop").disabled = state === "saving";
  };
}
