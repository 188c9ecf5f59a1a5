"""Web app benchmark (run through bench/web): the live waveform's frame rate while recording, next to the
same Chromium's own requestAnimationFrame rate on a blank page, the baseline, measured in the same run
before and after the recording.

Starts `myday-server serve` and headless Chromium as the browser tests do (Tests/Browser/harness.py: fake
microphone speaking a diary sentence, the phone's viewport), signs up, starts recording and counts the frames
the home view draws (its `data-frames` counter, one per waveform and clock update) over BENCH_WEB_WINDOWS
windows of BENCH_WEB_SECONDS each (3 × 5 s by default). Each window also records the frame intervals, the
page's main-thread busy time (Chromium's Performance metrics) and its long tasks (over 50 ms). Results are printed, written to bench/results/web.md, and
replace the "Web app: waveform frame rate" section of docs/benchmarks.md.
"""
import datetime
import os
import re
import shutil
import statistics
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "Browser"))

from harness import Server, make_speech, quit_chromium, register, start_chromium, start_recording, wait_until_recorded  # noqa: E402

WINDOWS = int(os.environ.get("BENCH_WEB_WINDOWS", "3"))
SECONDS = float(os.environ.get("BENCH_WEB_SECONDS", "5"))
TARGET_FPS = 30
HEADING = "## Web app: waveform frame rate"
BLANK = "data:text/html,<!doctype html><title>blank</title><body></body>"

# One window: on the home view, every change of its frame counter; elsewhere, every requestAnimationFrame.
MEASURE = """
const ms = arguments[0];
const done = arguments[arguments.length - 1];
const home = document.querySelector('.home');
const stamps = [];
let longTasks = 0;
let longest = 0;
const tasks = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) { longTasks += 1; longest = Math.max(longest, entry.duration); }
});
try { tasks.observe({ type: 'longtask' }); } catch (error) {}
let stop;
if (home) {
  const first = Number(home.dataset.frames);
  const watcher = new MutationObserver((records) => { for (const record of records) stamps.push(performance.now()); });
  watcher.observe(home, { attributes: true, attributeFilter: ['data-frames'] });
  stop = () => { watcher.disconnect(); return Number(home.dataset.frames) - first; };
} else {
  let running = true;
  const tick = () => { if (!running) return; stamps.push(performance.now()); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  stop = () => { running = false; return stamps.length; };
}
const began = performance.now();
setTimeout(() => {
  const frames = stop();
  const elapsed = performance.now() - began;
  tasks.disconnect();
  done({ frames, elapsed, stamps, longTasks, longest });
}, ms);
"""


def busy_seconds(driver):
    """The page's main-thread time so far (Chromium's own counters, through the DevTools protocol)."""
    metrics = {m["name"]: m["value"] for m in driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]}
    return metrics["TaskDuration"], metrics["ScriptDuration"]


def measure(driver, label):
    driver.execute_cdp_cmd("Performance.enable", {})
    windows = []
    for _ in range(WINDOWS):
        task, script = busy_seconds(driver)
        window = driver.execute_async_script(MEASURE, SECONDS * 1000)
        task_after, script_after = busy_seconds(driver)
        window["busy"] = (task_after - task) / (window["elapsed"] / 1000)
        window["script"] = (script_after - script) / (window["elapsed"] / 1000)
        window["fps"] = window["frames"] / (window["elapsed"] / 1000)
        stamps = window.pop("stamps")
        window["intervals"] = [b - a for a, b in zip(stamps, stamps[1:])]
        windows.append(window)
        print(f"{label}: {window['fps']:.1f} frames/s over {window['elapsed'] / 1000:.2f} s, "
              f"main thread busy {window['busy']:.1%} (script {window['script']:.1%}), {window['longTasks']} long tasks", flush=True)
    return windows


def summary(windows):
    rates = [w["fps"] for w in windows]
    intervals = sorted(i for w in windows for i in w["intervals"])
    p95 = intervals[min(len(intervals) - 1, int(len(intervals) * 0.95))] if intervals else 0
    return {
        "fps": statistics.median(rates), "low": min(rates), "high": max(rates),
        "p50": statistics.median(intervals) if intervals else 0, "p95": p95, "worst": max(intervals, default=0),
        "long_tasks": sum(w["longTasks"] for w in windows), "longest": max(w["longest"] for w in windows),
        "busy": statistics.median(w["busy"] for w in windows), "script": statistics.median(w["script"] for w in windows),
    }


def describe(s):
    return (f"{s['fps']:.1f} frames/s ({s['low']:.1f}–{s['high']:.1f}); frame interval p50 {s['p50']:.1f} ms, "
            f"p95 {s['p95']:.1f} ms, worst {s['worst']:.0f} ms")


def os_name():
    try:
        with open("/etc/os-release") as f:
            fields = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
        return f"{fields.get('NAME', 'Linux').strip(chr(34)).split()[0]} {fields.get('VERSION_ID', '').strip(chr(34))}".strip()
    except OSError:
        return "Linux"


def long_tasks(s):
    return f"{s['long_tasks']} (longest {s['longest']:.0f} ms)" if s["long_tasks"] else "none"


def report(version, load, waveform, baseline):
    ratio = waveform["fps"] / baseline["fps"] if baseline["fps"] else 0
    met = "met" if waveform["fps"] >= TARGET_FPS else "**missed**"
    today = datetime.date.today().isoformat()
    return f"""{HEADING} ({today}, {os_name()}, {os.cpu_count()} cores, headless Chromium {version})

`bench/web` starts `myday-server serve` (the debug build the browser tests use; the server only serves the
app here) and headless Chromium with a fake microphone speaking a diary sentence, at the phone's viewport
(390 × 844). It signs up, starts recording, and counts the frames the home view draws, one per waveform and
clock update, over {WINDOWS} windows of {SECONDS:g} s. The baseline, in the same run and the same Chromium, is
`requestAnimationFrame` on a blank page, {WINDOWS} windows before the recording and {WINDOWS} after. The main
thread's busy time (median of the windows) is Chromium's own `TaskDuration` and `ScriptDuration` over each window.
The browser tests only check that the waveform moves; its rate is measured here.

| measurement | result | target |
|---|---|---|
| waveform while recording, {WINDOWS} × {SECONDS:g} s | {describe(waveform)} | ≥ {TARGET_FPS} frames/s — {met} |
| `requestAnimationFrame` on a blank page, {2 * WINDOWS} × {SECONDS:g} s | {describe(baseline)} | baseline |
| waveform / baseline | {ratio:.1%} | — |
| main thread busy while recording (script alone) | {waveform['busy']:.1%} of the time ({waveform['script']:.1%}) | — |
| main thread busy on the blank page (script alone) | {baseline['busy']:.1%} of the time ({baseline['script']:.1%}) | baseline |
| long tasks (over 50 ms) while recording | {long_tasks(waveform)} | — |
| long tasks on the blank page | {long_tasks(baseline)} | baseline |

Load average (1 min) when the run began: {load:.2f}. Headless Chromium paces frames itself (no display), so
the baseline is the most any page gets on this machine at that moment; compare the ratio between runs.
Raw output: `bench/results/web.md` (not committed).
"""


def update_docs(section):
    path = os.path.join(ROOT, "docs", "benchmarks.md")
    with open(path) as f:
        text = f.read()
    pattern = re.compile(rf"^{re.escape(HEADING)}.*?(?=^## |\Z)", re.MULTILINE | re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _: section + "\n", text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(path, "w") as f:
        f.write(text.rstrip("\n") + "\n")


def main():
    load = os.getloadavg()[0]
    data = tempfile.mkdtemp(prefix="myday-bench-web-")
    speech = tempfile.mkdtemp(prefix="myday-bench-speech-")
    server = Server(data, workers="0")
    driver = None
    try:
        driver = start_chromium(make_speech(speech))
        driver.set_script_timeout(SECONDS + 60)
        version = driver.capabilities.get("browserVersion", "?")
        driver.get(BLANK)
        before = measure(driver, "blank page (before)")
        register(driver, server)
        start_recording(driver)
        wait_until_recorded(driver, 1)
        waveform = summary(measure(driver, "waveform"))
        driver.get(BLANK)
        after = measure(driver, "blank page (after)")
        baseline = summary(before + after)
    finally:
        if driver is not None:
            quit_chromium(driver)
        server.stop()
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(speech, ignore_errors=True)
    section = report(version, load, waveform, baseline)
    print("\n" + section)
    os.makedirs(os.path.join(ROOT, "bench", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "bench", "results", "web.md"), "w") as f:
        f.write(section)
    update_docs(section)
    print("Written to bench/results/web.md and docs/benchmarks.md.")


if __name__ == "__main__":
    main()
