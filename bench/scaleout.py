"""Runs Tests/ScaleOut/cluster.py large, then the single-machine baseline with the same clients; prints markdown."""

import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "ScaleOut"))
import cluster  # noqa: E402

CLIENTS = int(os.environ.get("BENCH_SCALEOUT_CLIENTS", "24"))
ENTRIES = int(os.environ.get("BENCH_SCALEOUT_ENTRIES", "10"))


def main():
    settings = cluster.Settings(clients=CLIENTS, entries_per_client=ENTRIES, kill_after=CLIENTS * ENTRIES // 3)
    runs = {}
    for name, single in (("cluster", False), ("one machine", True)):
        with tempfile.TemporaryDirectory(prefix="myday-scale-") as folder:
            runs[name] = cluster.run(settings, folder, single_machine=single)
    print(f"{CLIENTS} clients × {ENTRIES} entries (1.5 s AAC each), each client: sign up, record (create, PUT, complete),")
    print("delta sync after each, exports asked for while recording (the last after the last entry), wait until all")
    print("transcribed, every export downloaded and checked. One API node is killed holding client requests, one worker")
    print("while it builds an export.\n")
    print("| | cluster (2 API nodes behind nginx/TLS, 2 workers × 2 slots, PostgreSQL, bucket; SIGKILLs) "
          "| one machine (serve, SQLite, disk, 4 job slots) |")
    print("|---|---|---|")
    rows = [
        ("entries per minute, end to end (first create → all transcribed)", "entries_per_minute", "{:.0f}"),
        ("uploads per second (create + PUT + complete + sync)", "uploads_per_second", "{:.1f}"),
        ("seconds until all transcribed", "seconds_to_transcribed", "{:.1f}"),
        ("client retries (requests that met a dead node)", "retries", "{}"),
        ("exports built while recording", "exports", "{}"),
    ]
    for label, key, form in rows:
        print(f"| {label} | {form.format(runs['cluster'][key])} | {form.format(runs['one machine'][key])} |")
    ratio = runs["cluster"]["entries_per_minute"] / runs["one machine"]["entries_per_minute"]
    print(f"| cluster / one machine, entries per minute | {ratio:.2f} | 1 |")
    taken_over = ", ".join(runs["cluster"]["jobs_taken_over"])
    print(f"\nThe killed API node held {runs['cluster']['requests_in_killed_node']} unread requests; the killed worker's"
          f" jobs, taken over by another: {taken_over}.")
    print("\nPeak RSS (MB, VmHWM; a killed process's peak before and after its restart):\n")
    for name, run in runs.items():
        print(f"- {name}: " + ", ".join(f"{process} {mb:.0f}" for process, mb in sorted(run["peak_rss_mb"].items())))


if __name__ == "__main__":
    main()
