/// "1 entry", "4 entries": a count with the noun that fits it, in English.
public func counted(_ count: Int, _ one: String, _ many: String) -> String {
    count == 1 ? "1 \(one)" : "\(count) \(many)"
}
