import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// The answer of one link of `linkd open --json`: accepted, or refused with a reason and a message.
struct OpenOutcome: Equatable {
    var accepted = false
    var reason: String?
    var message: String?
}

/// What the spool's fault tests share: the answers of `linkd open --json`, subscribers, and spools filled by hand.
extension DaemonHarness {
    /// Opens `urls` with one `linkd open --json` (through `launcher`) and returns one outcome per link.
    func open(_ urls: [String], launcher: [String] = []) throws -> [OpenOutcome] {
        let output = try run(["open", "--json"] + urls, launcher: launcher)
        let outcomes = output.stdout.split(separator: "\n").compactMap { line -> OpenOutcome? in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
                return nil
            }
            let error = object["error"] as? [String: Any]
            return OpenOutcome(
                accepted: object["ok"] as? Bool == true,
                reason: error?["reason"] as? String,
                message: error?["message"] as? String
            )
        }
        #expect(outcomes.count == urls.count, "\(output)\n\(daemonLog())")
        return outcomes
    }

    /// Subscribes for `app` on the socket at `path` (the world's by default); the caller closes the connection.
    func subscribe(_ app: String, path: String? = nil) throws -> Int32 {
        let fd = try connect(path: path)
        fd.send(#"{"op": "subscribe", "app": "\#(app)"}"# + "\n")
        #expect(fd.readLine() == #"{"ok": true, "app": "\#(app)", "state": "subscribed"}"#)
        return fd
    }

    /// The `url` of each of the next `count` links forwarded to `app` on the socket at `path` (the world's by
    /// default), fewer when none comes for 10 s; then checks that no other line comes within half a second.
    ///
    /// It subscribes as an app does, and again whenever the daemon lets it go: a subscriber that takes no line for
    /// 5 s is let go, which a loaded machine can make of a test, and the links it had not taken come to its next
    /// subscription. A line cut off by that is no link.
    func forwardedURLs(of app: String, count: Int, path: String? = nil) throws -> (urls: [String], subscriptions: Int) {
        var urls: [String] = []
        var subscriber = try subscribe(app, path: path)
        var subscriptions = 1
        defer { close(subscriber) }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while urls.count < count {
            let got = read(subscriber, &chunk, chunk.count)  // subscribe's readLine left a 10 s SO_RCVTIMEO
            guard got >= 0 else { break }  // none came for 10 s
            guard got > 0 else {
                pending.removeAll()
                close(subscriber)
                subscriber = try subscribe(app, path: path)
                subscriptions += 1
                continue
            }
            pending += chunk[..<got]
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(...end)
                let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
                urls.append(object?["url"] as? String ?? line)
            }
        }
        #expect(pending.isEmpty, "no link comes twice")
        #expect(subscriber.readLine(timeout: .milliseconds(500)) == nil, "no link comes twice")
        return (urls, subscriptions)
    }

    /// The number of entries in the spool folder at `path` (the world's by default), temporary files left out.
    func spoolCount(at path: String? = nil) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path ?? spoolPath)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.count
    }

    /// The resident high-water mark of process `pid` (`VmHWM` in `/proc/PID/status`), in KiB; 0 when unknown.
    static func peakResidentKiB(of pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
