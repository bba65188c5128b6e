import Foundation
import LinkdTestSupport
import Testing

/// A daemon that `linkd open` starts takes only the documented environment from that client: nothing of a mail
/// client's own (`LD_PRELOAD`, `LD_LIBRARY_PATH`, `SSLKEYLOGFILE`, anything else) reaches the daemon, libcurl or the
/// programs it starts.
@Suite(.ownThread) struct DaemonEnvironmentTests {
    static let foreign = [
        "LD_PRELOAD": "/nonexistent/libhook.so", "LD_LIBRARY_PATH": "/tmp/appimage/lib",
        "MAIL_CLIENT_SECRET": "c4nary-env-91d3", "XDG_ACTIVATION_TOKEN": "token-of-that-click",
    ]

    /// The variables of a process's initial environment, read from `/proc/PID/environ`.
    static func environment(of pid: Int32) -> [String: String] {
        let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") ?? Data()
        return Dictionary(
            data.split(separator: 0).map { entry in
                let text = String(decoding: entry, as: UTF8.self)
                let name = String(text.prefix { $0 != "=" })
                return (name, String(text.dropFirst(name.count + 1)))
            },
            uniquingKeysWith: { $1 }
        )
    }

    @Test func theDaemonAndItsProgramsGetOnlyTheDocumentedEnvironment() throws {
        let world = try DaemonHarness()
        let keylog = world.root.appendingPathComponent("keys.log").path
        let opened = try world.run(
            ["open", "myapp://note/1"],
            extra: Self.foreign.merging(["SSLKEYLOGFILE": keylog, "LANG": "C.UTF-8"]) { $1 }
        )
        #expect(opened.status == 0, "\(opened)\n\(world.daemonLog())")
        let daemon = try #require(world.daemonPIDs().first)
        let environment = Self.environment(of: daemon)
        #expect(environment["XDG_RUNTIME_DIR"] == world.runtime.path)
        #expect(environment["LANG"] == "C.UTF-8")
        #expect(environment["PATH"]?.hasSuffix("/.local/bin:/usr/local/bin:/usr/bin:/bin") == true)
        for name in Self.foreign.keys.sorted() + ["SSLKEYLOGFILE"] {
            #expect(environment[name] == nil, "the daemon inherited \(name)")
        }
        #expect(world.waitUntil(.seconds(10)) { world.receivedPayloads().count == 1 })
        let programEnvironment = try String(contentsOf: world.processInfoLog, encoding: .utf8)
        for name in Self.foreign.keys.sorted() + ["SSLKEYLOGFILE", "NOTIFY_SOCKET"] {
            #expect(!programEnvironment.contains("\n\(name)="), "the program inherited \(name)")
        }
        #expect(programEnvironment.contains("\nLINKD_LINK_ID="))
    }

    /// libcurl writes the TLS secrets of every connection to `$SSLKEYLOGFILE`: with them and a capture, the request
    /// carrying the new password reads in the clear. The daemon never has that variable, so no such file appears.
    @Test func aResetOverTLSWritesNoKeyLogWhatEverTheClientsEnvironmentSays() throws {
        let ca = try TestCA.make()
        let reset = try ResetWorld(tls: (ca, trusted: true))
        let keylog = reset.world.root.appendingPathComponent("keys.log").path
        let link = try reset.recoveryLink()
        let result = try reset.open(link.url, password: "a-new-password-1", extra: ["SSLKEYLOGFILE": keylog])
        #expect(result.status == 0, "\(result)\n\(reset.world.daemonLog())")
        #expect(reset.gotrue.password(of: "ada@example.com") == "a-new-password-1")
        #expect(!FileManager.default.fileExists(atPath: keylog))
    }

    /// A daemon whose own environment names `SSLKEYLOGFILE` (its service manager's, say) clears it before libcurl is
    /// loaded.
    @Test func aDaemonStartedWithAKeyLogFileClearsItBeforeLibcurlLoads() throws {
        let ca = try TestCA.make()
        let reset = try ResetWorld(tls: (ca, trusted: true))
        let keylog = reset.world.root.appendingPathComponent("keys.log").path
        let daemon = try reset.world.startDaemon(extra: ["SSLKEYLOGFILE": keylog])
        defer { daemon.terminate() }
        let link = try reset.recoveryLink()
        let result = try reset.open(link.url, password: "a-new-password-2")
        #expect(result.status == 0, "\(result)")
        #expect(reset.gotrue.password(of: "ada@example.com") == "a-new-password-2")
        #expect(!FileManager.default.fileExists(atPath: keylog))
    }
}
