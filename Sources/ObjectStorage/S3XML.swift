import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The little XML S3 speaks: requests written with escaped text, answers read with Foundation's XML parser.
enum S3XML {
    /// Text escaped for an element's content.
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

    /// An element of an answer: its name, its own text and its child elements.
    struct Element: Sendable {
        let name: String
        fileprivate(set) var text = ""
        fileprivate(set) var children: [Element] = []

        /// The root element of `document`; nil when it is no well-formed XML (an empty answer, a proxy's HTML page).
        static func root(of document: String) -> Element? {
            let reader = TreeReader()
            let parser = XMLParser(data: Data(document.utf8))
            parser.delegate = reader
            guard parser.parse() else { return nil }
            return reader.root
        }

        /// The text of the first child element named `name`.
        func value(_ name: String) -> String? { children.first { $0.name == name }?.text }

        /// Every child element named `name`, in order.
        func all(_ name: String) -> [Element] { children.filter { $0.name == name } }
    }

    /// The error an answer carries (an `<Error>` document): its code and message; nil for any other answer.
    static func error(in document: String) -> (code: String?, message: String?)? {
        guard let root = Element.root(of: document), root.name == "Error" else { return nil }
        return (root.value("Code"), root.value("Message"))
    }
}

/// Builds the element tree as the parser reports it.
private final class TreeReader: NSObject, XMLParserDelegate {
    private var open: [S3XML.Element] = []
    private(set) var root: S3XML.Element?

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        open.append(S3XML.Element(name: name))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !open.isEmpty else { return }
        open[open.count - 1].text += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard let element = open.popLast() else { return }
        if open.isEmpty {
            root = element
        } else {
            open[open.count - 1].children.append(element)
        }
    }
}
