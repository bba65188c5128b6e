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

    /// The `url` of each of the next `count` lines a subscriber reads (fewer when none comes for 10 s), then checks
    /// that no other line comes within half a second.
    func forwardedURLs(from subscriber: Int32, count: Int) -> [String] {
        var urls: [String] = []
        while urls.count < count, let line = subscriber.readLine() {
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            urls.append(object?["url"] as? String ?? line)
        }
        #expect(subscriber.readLine(timeout: .milliseconds(500)) == nil, "no link comes twice")
        return urls
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
