// swift-tools-version:6.1
import PackageDescription

let upcomingFeatures: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "linkd",
    products: [
        .library(name: "LinkdRouting", targets: ["LinkdRouting"]),
        .library(name: "LinkdFormats", targets: ["LinkdFormats"]),
        .library(name: "LinkdTesting", targets: ["LinkdTesting"]),
        .executable(name: "linkd", targets: ["linkd"]),
        .executable(name: "linkd-bench", targets: ["linkd-bench"]),
        .executable(name: "linkd-mini-client", targets: ["linkd-mini-client"]),
    ],
    targets: [
        .target(
            name: "LinkdRouting",
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "LinkdFormats",
            dependencies: ["LinkdRouting"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "LinkdSession",
            dependencies: ["LinkdRouting", "LinkdFormats", "CCurl"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "LinkdTestSupport",
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "LinkdTesting",
            dependencies: ["LinkdRouting", "LinkdFormats"],
            swiftSettings: upcomingFeatures
        ),
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // libcurl's headers only: the library is loaded at run time (see Sources/CCurl/shim.h).
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(
            name: "LinkdSystemd",
            dependencies: ["CSystemd"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "LinkdDaemon",
            dependencies: ["LinkdRouting", "LinkdFormats", "LinkdSession", "LinkdSystemd"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "LinkdCLI",
            dependencies: ["LinkdRouting", "LinkdFormats", "LinkdSession", "LinkdDaemon"],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "linkd",
            dependencies: ["LinkdCLI"],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "linkd-bench",
            dependencies: ["LinkdRouting"],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "linkd-mini-client",
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "LinkdRoutingTests",
            dependencies: ["LinkdRouting"],
            exclude: ["Fixtures"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "LinkdFormatsTests",
            dependencies: ["LinkdFormats", "LinkdTesting"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "LinkdSystemdTests",
            dependencies: ["LinkdSystemd", "LinkdTestSupport"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "LinkdDaemonTests",
            dependencies: ["LinkdDaemon", "LinkdTesting"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "LinkdTestingTests",
            dependencies: ["LinkdTesting"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "LinkdSessionTests",
            dependencies: ["LinkdSession", "LinkdTestSupport"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "LinkdCLITests",
            dependencies: ["LinkdCLI", "LinkdSystemd", "LinkdTestSupport", "linkd", "LinkdTesting"],
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)
