import Foundation

/// The operations `openapi.yaml` marks `security: []`, read from its text (the operation's lines after its
/// `operationId`), for tests that hold the server's and the client's lists of public operations to the document.
package enum PublicOperations {
    /// Public operations of routes outside the generated API (the web session, signed blob URLs, operations), which
    /// neither the server's bearer check nor the client core's API client handle.
    package static let outsideTheAPIClient: Set<String> = [
        "registerOnWeb", "loginOnWeb", "resetPasswordOnWeb", "signInWithAppleOnWeb", "signInWithGoogleOnWeb", "refreshOnWeb",
        "logoutOnWeb", "downloadExport", "uploadAudio", "downloadAudio", "health", "readiness", "metrics", "openAPIDocument",
        "appSiteAssociation",
    ]

    package static func inDocument() throws -> Set<String> {
        let text = try String(
            contentsOf: RepositoryFiles.root.appendingPathComponent("Sources/MyDayAPI/openapi.yaml"), encoding: .utf8)
        var found = Set<String>()
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("operationId:") {
                current = String(trimmed.dropFirst("operationId:".count)).trimmingCharacters(in: .whitespaces)
            } else if !line.hasPrefix("    ") && !trimmed.isEmpty {
                current = nil
            } else if trimmed == "security: []", let operation = current {
                found.insert(operation)
            }
        }
        return found
    }
}
