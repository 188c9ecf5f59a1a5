/// A length of time as messages to people say it: `10800` → "3 hours", `90` → "1 minute 30 seconds".
func spokenLength(seconds: Int) -> String {
    let parts = [(seconds / 3600, "hour"), (seconds % 3600 / 60, "minute"), (seconds % 60, "second")]
    let said = parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
    return said.isEmpty ? "0 seconds" : said.joined(separator: " ")
}
