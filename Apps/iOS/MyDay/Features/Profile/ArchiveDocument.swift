import SwiftUI
import UniformTypeIdentifiers

/// A downloaded export's zip, handed to the system's file exporter (Files, iCloud Drive); it is only ever written.
struct ArchiveDocument: FileDocument {
    static let readableContentTypes: [UTType] = [.zip]

    let file: URL

    init(file: URL) {
        self.file = file
    }

    init(configuration: ReadConfiguration) throws {
        throw CocoaError(.fileReadUnsupportedScheme)
    }

    func fileWrapper(configuration: WriteConfiguration) throws -> FileWrapper {
        try FileWrapper(url: file, options: .immediate)
    }
}
