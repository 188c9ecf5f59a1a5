// swift-tools-version: 6.1
import PackageDescription

let applePlatforms: [Platform] = [.iOS, .macOS]

let package = Package(
    name: "MyDay",
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .library(name: "MyDayModels", targets: ["MyDayModels"]),
        .library(name: "MyDaySearch", targets: ["MyDaySearch"]),
        .library(name: "MyDayKit", targets: ["MyDayKit"]),
        .executable(name: "myday-server", targets: ["MyDayServerMain"]),
        .executable(name: "myday", targets: ["MyDayCLI"]),
        .executable(name: "myday-kit-bench", targets: ["MyDayKitBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-crypto", "4.1.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/vapor/postgres-kit", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/vapor/sql-kit", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit", from: "4.5.2"),
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        /// Domain values shared by the server and every client; Foundation only.
        .target(name: "MyDayModels"),
        /// How search reads a query, folds words and marks matches: shared by the server and MyDayKit's offline search.
        .target(name: "MyDaySearch"),
        /// S3-compatible object storage: AWS Signature Version 4 and the few S3 operations the server uses.
        .target(
            name: "ObjectStorage",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        /// Command-line tools (ffmpeg, ffprobe) run as child processes, awaited without blocking Swift's thread pool.
        .target(name: "ChildProcesses"),
        /// `openapi.yaml` and the types generated from it, shared by the server and the client core (all `package`);
        /// the client is generated into MyDayKit and the server stubs into MyDayServer.
        .target(
            name: "MyDayAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            resources: [.copy("openapi.yaml")]
        ),
        /// Debian's PocketSphinx (`libpocketsphinx-dev`), the embedded speech recognizer.
        .systemLibrary(name: "CPocketSphinx", pkgConfig: "pocketsphinx", providers: [.apt(["libpocketsphinx-dev"])]),
        /// The few PocketSphinx calls Swift cannot make itself (a variadic initialiser, the CMN state).
        .target(name: "PocketSphinxShim", dependencies: ["CPocketSphinx"]),
        /// Speech to text, with no HTTP server or database: ffmpeg decoding and probing, the recognizers (PocketSphinx
        /// here, any OpenAI-compatible service) and transcript cleanup with its no-added-words guard.
        .target(
            name: "MyDaySpeech",
            dependencies: [
                "MyDayModels",
                "ChildProcesses",
                "CPocketSphinx",
                "PocketSphinxShim",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
            ]
        ),
        /// Mail: the outbox folder, SMTP (STARTTLS or implicit TLS) and SendGrid's HTTP API; nothing of the server.
        .target(
            name: "MyDayMail",
            dependencies: [
                "MyDayModels",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        /// The HTTP API, persistence, blob store and configuration of `myday-server`.
        .target(
            name: "MyDayServer",
            dependencies: [
                "ChildProcesses",
                "MyDayMail",
                "MyDayModels",
                "MyDaySearch",
                "MyDaySpeech",
                "ObjectStorage",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                "MyDayAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
            ],
            resources: [.copy("Resources/WebApp"), .copy("Resources/common-passwords.txt")]
        ),
        /// `myday-server serve|worker|migrate`: wiring only.
        .executableTarget(
            name: "MyDayServerMain",
            dependencies: [
                "MyDayServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        /// The client core every app uses: API client, local store, upload queue, sync, recorder logic, view models.
        .target(
            name: "MyDayKit",
            dependencies: [
                "MyDayModels",
                "MyDaySearch",
                "MyDayAPI",
                .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: [.linux])),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(
                    name: "OpenAPIURLSession", package: "swift-openapi-urlsession", condition: .when(platforms: applePlatforms)),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(platforms: [.linux])),
                .product(
                    name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client",
                    condition: .when(platforms: [.linux])),
            ]
        ),
        /// `myday`: the command-line client on MyDayKit.
        .executableTarget(
            name: "MyDayCLI",
            dependencies: [
                "MyDayKit", "MyDayModels", "MyDaySearch", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        /// `myday-kit-bench`: MyDayKit's sync and waveform levels, measured for `bench/kit`.
        .executableTarget(
            name: "MyDayKitBench",
            dependencies: [
                "MyDayKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            path: "bench/MyDayKitBench"
        ),
        /// Starts the real `myday-server` as a child process, for end-to-end tests of any part.
        .target(
            name: "MyDayTestSupport", dependencies: ["BrokenPipes", "ChildProcesses", "MyDayModels"],
            path: "Tests/MyDayTestSupport"),
        /// Makes a test process ignore SIGPIPE from the moment it loads (a C constructor; see BrokenPipes.c).
        .target(name: "BrokenPipes", path: "Tests/BrokenPipes"),
        /// Lowers the zip library's 32-bit limits for one test, so that a small export takes the ZIP64 path. The
        /// library's limits are plain global variables, which only Swift 5 mode lets another module set.
        .target(
            name: "ZIPLimits", dependencies: [.product(name: "ZIPFoundation", package: "ZIPFoundation")],
            path: "Tests/ZIPLimits", swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "MyDayModelsTests", dependencies: ["MyDayModels", "MyDayTestSupport"]),
        .testTarget(name: "MyDaySearchTests", dependencies: ["MyDaySearch", "MyDayTestSupport"]),
        .testTarget(
            name: "ObjectStorageTests",
            dependencies: [
                "ObjectStorage", "MyDayTestSupport", "ChildProcesses", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .testTarget(name: "ChildProcessesTests", dependencies: ["ChildProcesses", "MyDayTestSupport"]),
        /// OpenAI-compatible services (speech to text, chat) on a loopback port, as small Hummingbird apps, and the
        /// bounded runner every loopback app of the tests (the server's too) runs under.
        .target(
            name: "OpenAIStandIns",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                "MyDayModels",
            ],
            path: "Tests/OpenAIStandIns"
        ),
        .testTarget(
            name: "MyDaySpeechTests",
            dependencies: [
                "MyDaySpeech", "MyDayTestSupport", "OpenAIStandIns", .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"), .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "MyDayKitTests",
            dependencies: [
                "MyDayKit", "MyDayModels", "MyDaySearch", "MyDayTestSupport", .product(name: "Yams", package: "Yams"),
            ]),
        /// The `myday` executable run as a child process, against the real server or on its own.
        .testTarget(
            name: "MyDayCLITests",
            dependencies: ["MyDayKit", "MyDayModels", "MyDaySearch", "MyDayTestSupport", "ChildProcesses"]),
        .testTarget(
            name: "MyDayServerTests",
            dependencies: [
                "MyDayServer",
                "MyDayMail",
                "MyDaySpeech",
                "ObjectStorage",
                "MyDayTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Yams", package: "Yams"),
                "ZIPLimits",
                "OpenAIStandIns",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
