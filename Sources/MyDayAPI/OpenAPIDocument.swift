import Foundation

/// The API's one source of truth, `openapi.yaml`, as shipped inside this module.
public enum OpenAPIDocument {
    /// The document's bytes, as served at `GET /openapi.yaml`.
    public static func yaml() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Data(contentsOf: url)
    }
}
