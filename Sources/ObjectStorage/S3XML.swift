/// The little XML S3 speaks: answers read by element name, requests written with escaped text.
enum S3XML {
    /// The text of every `<name>` element in `document`, in order, unescaped.
    static func values(of name: String, in document: String) -> [String] {
        elements(name, in: document).map { unescaped($0[...]) }
    }

    /// The whole of every `<name>…</name>` element, for reading its children.
    static func elements(_ name: String, in document: String) -> [String] {
        var elements: [String] = []
        var rest = document[...]
        while let open = rest.range(of: "<\(name)>") {
            guard let close = rest.range(of: "</\(name)>", range: open.upperBound..<rest.endIndex) else { break }
            elements.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return elements
    }

    static func value(of name: String, in document: String) -> String? { values(of: name, in: document).first }

    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }

    static func unescaped(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&#13;", with: "\r").replacingOccurrences(of: "&#10;", with: "\n")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
