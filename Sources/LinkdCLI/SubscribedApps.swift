import LinkdFormats
import LinkdSystem

/// The apps subscribed to the daemon on the session bus, each with how it proved it is the app, as `linkd status`
/// shows them: asked of `io.linkd.Linkd1` (`Subscribers`) when a daemon serves it, never starting one.
struct SubscribedApps: Sendable {
    /// The apps and their proofs (`key`, `flatpak`); `nil` when no daemon serves the interface.
    let apps: [String: String]?

    static func gather() async -> SubscribedApps {
        guard let endpoint = try? BusEndpoint() else { return SubscribedApps(apps: nil) }
        defer { endpoint.close() }
        let owned = await endpoint.call(
            destination: "org.freedesktop.DBus",
            path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus",
            member: "NameHasOwner",
            arguments: [.string("io.linkd.Linkd1")],
            timeout: .seconds(2)
        )
        guard case .success(let values) = owned, values.first?.boolean == true else { return SubscribedApps(apps: nil) }
        let reply = await endpoint.call(
            destination: "io.linkd.Linkd1",
            path: "/io/linkd/Linkd1",
            interface: "io.linkd.Linkd1",
            member: "Subscribers",
            arguments: [],
            timeout: .seconds(2)
        )
        guard case .success(let answer) = reply else { return SubscribedApps(apps: nil) }
        return SubscribedApps(apps: answer.first?.dictionary ?? [:])
    }

    /// The line `linkd status` prints.
    var line: String {
        guard let apps else { return "subscribed apps: none (no daemon serves io.linkd.Linkd1 on the session bus)" }
        guard !apps.isEmpty else { return "subscribed apps: none" }
        let proved = apps.sorted { $0.key < $1.key }.map { "\(DisplayText.sanitize($0.key)) (\($0.value))" }
        return "subscribed apps: " + proved.joined(separator: ", ")
    }

    /// The `subscribed` member of `linkd status --json`: `[{"app", "proof"}]`, or `null` when no daemon serves the
    /// interface.
    var json: JSONValue {
        guard let apps else { return .null }
        return .array(
            apps.sorted { $0.key < $1.key }.map { .object([("app", .string($0.key)), ("proof", .string($0.value))]) }
        )
    }
}
