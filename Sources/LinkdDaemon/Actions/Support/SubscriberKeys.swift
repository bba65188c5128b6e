import FoundationEssentials
import LinkdConfig
import LinkdSystem

/// The keys that prove a process is an app: one random key per configured app, in `$XDG_RUNTIME_DIR/linkd/keys/<app
/// id>` (a 0600 file in a 0700 folder), written when the daemon reads its configuration and kept as long as the file
/// is (a daemon started later reads it back).
///
/// On the socket, any connection of the user's may subscribe to an app and receive its `forward` links; a session is
/// handed only to a subscriber that sent the app's key (`{"op": "subscribe", "app": …, "key": …}`). On the session bus
/// a host app subscribes only with its key. So a process that can reach linkd but not that file (a sandboxed app
/// given the socket alone) cannot take another app's sign-in, and an app's package that grants its program the file
/// grants it nothing else.
final class SubscriberKeys: Sendable {
    /// The folder of the key files.
    let directory: String
    private let keys = Lock<[String: String]>([:])

    init(directory: String) {
        self.directory = directory
    }

    /// The key file of `app`.
    func path(for app: String) -> String { directory + "/" + app }

    /// Makes sure every app of `apps` has a key file, reading back one a daemon wrote before; apps no longer
    /// configured keep no key here.
    ///
    /// - Returns: problems, for the log (a key file that cannot be written: that app cannot prove itself).
    func prepare(for apps: [AppConfig]) -> [String] {
        let configured = apps.map(\.app)
        var problems: [String] = []
        var prepared: [String: String] = [:]
        if !configured.isEmpty {
            do {
                try FileSystem.makePrivateDirectory(directory)
            } catch {
                return ["the subscriber keys cannot be kept: \(error)"]
            }
        }
        for app in configured {
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
