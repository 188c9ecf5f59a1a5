import Foundation
import MyDayModels
import MyDaySearch

/// The export's `index.html`: the diary readable in any browser from the unzipped folder, offline. Days with their
/// entries (time, title, tags, mood, length, the recording to play, the words) and a search box; one file with its
/// style and script inside, loading nothing from anywhere (its Content-Security-Policy forbids it).
///
/// Written in three parts so that the archive writer can stream the entries between them.
enum ArchiveIndexPage {
    /// Everything before the entries; `range` says which days the export holds.
    static func opening(range: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; media-src 'self' file:; \
        style-src 'unsafe-inline'; script-src 'unsafe-inline'">
        <title>My Day · \(escaped(range))</title>
        <style>
        :root { color-scheme: light dark; --bg: #f6f3ee; --text: #1f1d1a; --muted: #6b655d; --line: #e3ddd3;
          --accent: #b04a26; --mark: #f4d8c9; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #1b1917; --text: #f1ece4; --muted: #b3aa9e; --line: #37332e; --accent: #e07a52; --mark: #5a3524; }
        }
        body { margin: 0 auto; max-width: 46rem; padding: 16px; background: var(--bg); color: var(--text);
          font: 17px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
        h1 { font-size: 1.6rem; margin: 0.5rem 0; }
        .lede, .meta, .count { color: var(--muted); }
        input[type=search] { width: 100%; box-sizing: border-box; min-height: 44px; font: inherit; padding: 8px 12px;
          border: 1px solid var(--line); border-radius: 12px; background: transparent; color: inherit; }
        h2 { font-size: 1.15rem; margin: 2rem 0 0.5rem; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
        article { padding: 12px 0; border-bottom: 1px solid var(--line); }
        article h3 { font-size: 1rem; margin: 0; }
        article time { color: var(--accent); margin-right: 0.5em; }
        .meta { margin: 2px 0 8px; font-size: 0.9rem; }
        .words p { margin: 0 0 0.6em; white-space: pre-wrap; }
        audio { width: 100%; margin: 4px 0 8px; }
        [hidden] { display: none !important; }
        </style>
        </head>
        <body>
        <header>
        <h1>My Day</h1>
        <p class="lede">\(escaped(range)). Recordings play from the files beside this page.</p>
        <label for="search">Search</label>
        <input type="search" id="search" placeholder="Words, a name, a tag" autocomplete="off">
        <p class="count" id="count" role="status"></p>
        </header>
        <main id="days">

        """
    }

    /// One entry, as an `<article>` of its local day; `audioFile` is the recording's name in the archive.
    static func article(_ entry: EntryRecord, audioFile: String?) -> String {
        let zone = TimeZone(identifier: entry.timeZone) ?? .gmt
        let day = LocalDay(entry.createdAt, in: zone)
        let stamp = RecordingFilename.localTimestamp(of: entry.createdAt, in: zone)
        let clock = stamp.dropFirst(11).prefix(5).replacingOccurrences(of: "-", with: ":")
        let moment = entry.createdAt.formatted(Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: zone))
        var meta: [String] = []
        if !entry.tags.isEmpty { meta.append("Tags: " + entry.tags.joined(separator: ", ")) }
        if let mood = entry.mood { meta.append("Mood \(mood)/5") }
        if entry.kind == .audio { meta.append(ExportArchiveWriter.clockLength(seconds: entry.durationSeconds)) }
        var html = """
            <article data-day="\(day)" data-day-title="\(escaped(ExportArchiveWriter.longDate(day)))">
            <h3><time datetime="\(moment)">\(clock)</time>\(escaped(entry.title ?? ""))</h3>

            """
        if !meta.isEmpty { html += "<p class=\"meta\">\(escaped(meta.joined(separator: " · ")))</p>\n" }
        if let audioFile {
            let source = audioFile.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? audioFile
            html += "<audio controls preload=\"metadata\" src=\"\(escaped(source))\"></audio>\n"
        }
        let words = (entry.transcriptClean ?? "").components(separatedBy: "\n\n").filter { !$0.isEmpty }
        if !words.isEmpty {
            html += "<div class=\"words\">" + words.map { "<p>\(escaped($0))</p>" }.joined() + "</div>\n"
        } else if entry.kind == .audio {
            html += "<p class=\"meta\">No transcript (\(entry.status.rawValue.replacingOccurrences(of: "_", with: " "))).</p>\n"
        }
        return html + "</article>\n"
    }

    /// Everything after the entries: the script that puts them under their days and filters them.
    static let closing = """
        </main>
        <script>
        (() => {
          const main = document.getElementById("days");
          const entries = [...main.querySelectorAll("article")];
          const days = new Map();
          for (const entry of entries) {
            const day = entry.dataset.day;
            if (!days.has(day)) {
              const section = document.createElement("section");
              const heading = document.createElement("h2");
              heading.textContent = entry.dataset.dayTitle;
              section.append(heading);
              days.set(day, section);
            }
            days.get(day).append(entry);
          }
          main.replaceChildren(...[...days.keys()].sort().reverse().map((day) => days.get(day)));
          for (const section of days.values()) {
            const list = [...section.querySelectorAll("article")];
            list.sort((a, b) => b.querySelector("time").dateTime.localeCompare(a.querySelector("time").dateTime));
            section.append(...list);
          }
          const fold = (text) => text.normalize("NFD").replace(/[\\u0300-\\u036f]/g, "").toLowerCase();
          const texts = new Map(entries.map((entry) => [entry, fold(entry.textContent)]));
          const search = document.getElementById("search");
          const count = document.getElementById("count");
          function filter() {
            const words = fold(search.value).split(/\\s+/).filter(Boolean);
            let shown = 0;
            for (const entry of entries) {
              const match = words.every((word) => texts.get(entry).includes(word));
              entry.hidden = !match;
              if (match) shown++;
            }
            for (const section of days.values()) section.hidden = !section.querySelector("article:not([hidden])");
            count.textContent = words.length === 0
              ? `${entries.length} ${entries.length === 1 ? "entry" : "entries"} on ${days.size} ${days.size === 1 ? "day" : "days"}`
              : `${shown} of ${entries.length} entries match`;
          }
          search.addEventListener("input", filter);
          filter();
        })();
        </script>
        </body>
        </html>

        """

    /// Text escaped for HTML content and attribute values.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
