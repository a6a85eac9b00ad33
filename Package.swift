// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Shelfed",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "shelfed", targets: ["Shelfed"])
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/jpsim/Yams.git", "5.0.1"..<"7.0.0"),
        .package(url: "https://github.com/yaslab/CSV.swift.git", from: "2.5.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
    ],
    targets: [
        .executableTarget(
            name: "Shelfed",
            dependencies: [
                "ShelfedKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Read by the release link (see the Makefile), not compiled.
            exclude: ["link-order.txt"]
        ),
        .target(
            name: "CImaging",
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // malloc's settings and handing memory back when the server is idle (benchmarks/README.md, "Idle memory").
        .target(name: "CMemory"),
        // Programs started beside the server (tesseract, the doctor's checks) with posix_spawn, not Foundation's
        // Process, whose run() can crash the server on Linux (Capture/ChildProcess.swift).
        .target(name: "CSpawn"),
        // OpenBLAS for the sentence-embedding encoder, opened with dlopen on first use (DESIGN §14).
        .target(
            name: "CLinearAlgebra",
            linkerSettings: [.linkedLibrary("dl")]
        ),
        .target(
            name: "ShelfedKit",
            dependencies: [
                "CImaging",
                "CLinearAlgebra",
                "CMemory",
                "CSpawn",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .testTarget(
            name: "ShelfedKitTests",
            dependencies: [
                "ShelfedKit",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
    ]
)
