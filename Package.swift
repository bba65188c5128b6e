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
        .library(name: "LinkdClient", targets: ["LinkdClient"]),
        .executable(name: "linkd", targets: ["linkd"]),
        .executable(name: "linkd-bench", targets: ["linkd-bench"]),
        .executable(name: "linkd-mini-client", targets: ["linkd-mini-client"]),
        .executable(name: "linkd-example-app", targets: ["linkd-example-app"]),
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
            name: "LinkdConfig",
            dependencies: ["LinkdRouting", "LinkdFormats", "LinkdSystem"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "LinkdSession",
            dependencies: ["LinkdRouting", "LinkdFormats", "LinkdSystem", "CCurl"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            // Web links: the association files (apple-app-site-association, assetlinks.json) that say what a site's
            // apps may open, their cache, and where a clicked web link goes.
            name: "LinkdWeb",
            dependencies: [
                "LinkdRouting", "LinkdFormats", "LinkdConfig", "LinkdSession", "LinkdSystem", "LinkdDesktop",
            ],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "LinkdTestSupport",
            dependencies: ["CSystemd", "LinkdSystem", "LinkdWire"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "LinkdTesting",
            dependencies: ["LinkdRouting", "LinkdFormats"],
            swiftSettings: upcomingFeatures
        ),
        // libsystemd's headers only: the library is loaded at run time (see Sources/CSystemd/libsystemd.h).
        .systemLibrary(
            name: "CSystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // libcurl's headers only: the library is loaded at run time (see Sources/CCurl/shim.h).
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(
            name: "LinkdSystem",
            dependencies: ["CSystemd"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "LinkdDesktop",
            dependencies: ["LinkdRouting", "LinkdFormats", "LinkdConfig", "LinkdSystem"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "LinkdWire",
            dependencies: ["LinkdRouting", "LinkdFormats", "LinkdSession"],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "LinkdDaemon",
            dependencies: [
                "LinkdRouting", "LinkdFormats", "LinkdConfig", "LinkdSession", "LinkdSystem", "LinkdDesktop",
                "LinkdWire", "LinkdWeb",
            ],
            // The apps' interface's introspection XML links to the file the package installs.
            resources: [.embedInCode("AppInterface/io.linkd.Linkd1.xml")],
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "LinkdCLI",
            dependencies: [
                "LinkdRouting", "LinkdFormats", "LinkdConfig", "LinkdSession", "LinkdSystem", "LinkdDesktop",
                "LinkdDaemon", "LinkdWire", "LinkdWeb",
            ],
            // VERSION links to the repository's one VERSION file, which the Debian package reads too.
            resources: [.embedInCode("VERSION")],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "linkd",
            dependencies: ["LinkdCLI"],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            name: "linkd-bench",
            dependencies: ["LinkdRouting", "LinkdSystem", "LinkdClient"],
            // The real links of the format tests (backends' own tests and documentation), one per line.
            resources: [.embedInCode("Links/real-links.txt")],
            swiftSettings: upcomingFeatures
        ),
        .target(
            // An app's side of linkd: its links and sessions, through linkd's interface on the session bus.
            name: "LinkdClient",
            dependencies: ["LinkdSystem"],
            swiftSettings: upcomingFeatures
        ),
        .executableTarget(
            // The example app of the app developers' guide, which the tests run as an app would.
            name: "linkd-example-app",
            dependencies: ["LinkdClient"],
            path: "share/examples/swift-app",
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
            name: "LinkdWebTests",
            dependencies: [
                "LinkdWeb", "LinkdRouting", "LinkdConfig", "LinkdSession", "LinkdSystem", "LinkdTestSupport",
                "LinkdTesting",
            ],
            exclude: ["Fixtures"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "LinkdSystemTests",
            dependencies: ["CSystemd", "LinkdSystem", "LinkdTestSupport"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "LinkdConfigTests",
            dependencies: ["LinkdConfig", "LinkdFormats", "LinkdTesting"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "LinkdDaemonTests",
            dependencies: [
                "LinkdDaemon", "LinkdConfig", "LinkdFormats", "LinkdRouting", "LinkdSession", "LinkdSystem",
                "LinkdTestSupport", "LinkdWire", "LinkdCLI",
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "LinkdWireTests",
            dependencies: ["LinkdWire", "LinkdFormats", "LinkdRouting", "LinkdSession"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "LinkdDesktopTests",
            dependencies: ["LinkdDesktop", "LinkdConfig", "LinkdSystem", "LinkdTestSupport"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "LinkdTestingTests",
            dependencies: ["LinkdTesting"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "LinkdSessionTests",
            dependencies: ["LinkdSession", "LinkdSystem", "LinkdTestSupport"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "LinkdCLITests",
            dependencies: [
                "LinkdCLI", "LinkdSystem", "LinkdTestSupport", "LinkdWire", "linkd", "LinkdTesting", "LinkdConfig",
                "LinkdDaemon", "LinkdRouting", "LinkdSession",
            ],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            // What a user meets: the linkd binary, its daemon, systemd, D-Bus, the backend doubles over HTTP(S).
            name: "LinkdEndToEndTests",
            dependencies: ["LinkdSystem", "LinkdTestSupport", "LinkdFormats", "LinkdSession", "LinkdClient", "linkd"],
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Fuzz targets (scripts/fuzz): one checks library, and per target an executable that is libFuzzer's target when built
// with `-sanitize=fuzzer -D LINKD_FUZZING` and otherwise replays the inputs it is given; the tests replay the corpus.
let fuzzTargets = [
    "link", "formats", "apps", "json", "wire", "backends", "desktop", "lines", "redactor", "spool", "defaults", "pkce",
    "appservices-session", "association",
]
package.targets += [
    .target(
        name: "LinkdFuzzChecks",
        dependencies: [
            "LinkdRouting", "LinkdFormats", "LinkdConfig", "LinkdSession", "LinkdSystem", "LinkdDesktop", "LinkdDaemon",
            "LinkdWire", "LinkdWeb",
        ],
        path: "Fuzz/Checks",
        swiftSettings: upcomingFeatures
    ),
    .testTarget(
        name: "LinkdFuzzTests",
        dependencies: ["LinkdFuzzChecks"],
        swiftSettings: upcomingFeatures
    ),
]
package.targets += fuzzTargets.map { name in
    .executableTarget(
        name: "fuzz-" + name,
        dependencies: ["LinkdFuzzChecks"],
        path: "Fuzz/" + name,
        swiftSettings: upcomingFeatures
    )
}
