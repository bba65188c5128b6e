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
        .executable(name: "linkd", targets: ["linkd"]),
        .executable(name: "linkd-bench", targets: ["linkd-bench"]),
    ],
    targets: [
        .target(
            name: "LinkdRouting",
            swiftSettings: upcomingFeatures
        ),
        .target(
            name: "LinkdCLI",
            dependencies: ["LinkdRouting"],
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
        .testTarget(
            name: "LinkdRoutingTests",
            dependencies: ["LinkdRouting"],
            exclude: ["Fixtures"],
            swiftSettings: upcomingFeatures
        ),
        .testTarget(
            name: "LinkdCLITests",
            dependencies: ["LinkdCLI", "linkd"],
            swiftSettings: upcomingFeatures
        ),
    ],
    swiftLanguageModes: [.v6]
)
