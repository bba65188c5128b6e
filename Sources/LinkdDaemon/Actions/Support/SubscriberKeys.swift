import FoundationEssentials
import LinkdConfig
import LinkdSystem

/// The keys that let an app's subscriber receive its signed-in sessions: one random key per app whose `signin` action
/// forwards the session, in `$XDG_RUNTIME_DIR/linkd/keys/<app id>` (a 0600 file in a 0700 folder), written when the
/// daemon reads its configuration and kept as long as the file is (a daemon started later reads it back).
///
/// Any connection of the user's may subscribe to an app and receive its `forward` links, as before; a session is
/// handed only to a subscriber that sent the app's key (`{"op": "subscribe", "app": …, "key": …}`). So a process that
/// can reach linkd's socket but not that file (a sandboxed app given the socket alone) cannot take another app's
/// sign-in, and an app's package that grants its program the file grants it nothing else.
final class SubscriberKeys: Sendable {
    /// The folder of the key files.
    let directory: String
    private let keys = Lock<[String: String]>([:])

    init(directory: String) {
        self.directory = directory
    }

    /// The key file of `app`.
    func path(for app: String) -> String { directory + "/" + app }

    /// Makes sure every app of `apps` that forwards sessions has a key file, reading back one a daemon wrote before;
    /// apps that no longer forward sessions keep no key here.
    ///
    /// - Returns: problems, for the log (a key file that cannot be written: that app's sessions wait for nothing).
    func prepare(for apps: [AppConfig]) -> [String] {
        let forwarding = apps.filter { app in
            app.links.contains { $0.action.settings(as: SignInSettings.self)?.delivery == .forward }
        }.map(\.app)
        var problems: [String] = []
        var prepared: [String: String] = [:]
        if !forwarding.isEmpty {
            do {
                try FileSystem.makePrivateDirectory(directory)
            } catch {
                return ["the subscriber keys cannot be kept: \(error)"]
            }
        }
        for app in forwarding {
            if let existing = Self.read(path(for: app)) {
                prepared[app] = existing
                continue
            }
            var generator = SystemRandomNumberGenerator()
            let key = (0..<4).map { _ in Self.hex(generator.next() as UInt64) }.joined()
            do {
                try FileSystem.writeAtomically(Array((key + "\n").utf8), to: path(for: app), mode: 0o600)
                prepared[app] = key
            } catch {
                problems.append("the subscriber key of \(app) cannot be written: \(error)")
            }
        }
        keys.withLock { $0 = prepared }
        return problems
    }

    /// Whether `key` is the key of `app` (compared in constant time).
    func isValid(_ key: String, for app: String) -> Bool {
        guard let expected = keys.withLock({ $0[app] }) else { return false }
        let (given, wanted) = (Array(key.utf8), Array(expected.utf8))
        guard given.count == wanted.count else { return false }
        return zip(given, wanted).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The key in the file at `path`: 64 lower-case hex digits and a LF; `nil` for anything else.
    private static func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path), data.count == 65 else { return nil }
        let text = String(decoding: data.dropLast(), as: UTF8.self)
        guard data.last == UInt8(ascii: "\n"), text.utf8.allSatisfy({ Self.isHexDigit($0) }) else { return nil }
        return text
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
