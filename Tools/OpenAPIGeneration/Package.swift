// swift-tools-version: 6.1
import PackageDescription

/// Builds the OpenAPI generator that `scripts/generate-openapi` runs; kept apart so the app's build does not pay for it.
let package = Package(
    name: "OpenAPIGeneration",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")
    ]
)
