/// Tags most used first (ties by name), each once: the order in which day pages, exports and suggestions list them.
func tagsByUse(_ tags: some Sequence<String>) -> [String] {
    var counts: [String: Int] = [:]
    for tag in tags { counts[tag, default: 0] += 1 }
    return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key)
}
