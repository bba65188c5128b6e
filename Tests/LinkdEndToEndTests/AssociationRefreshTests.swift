import Foundation
import LinkdTestSupport
import Testing

/// The daemon fetches the association files of an app's web links when it reads the configuration, from a real HTTPS
/// server of the tests, keeps them 0600 in the cache, logs the host and file (never a link), and a daemon started
/// again while they are fresh fetches nothing.
@Suite(.ownThread, .serialized, .disabled(if: Sanitizer.isActive, Sanitizer.reason)) struct AssociationRefreshTests {
    static let aasa = #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.web", "paths": ["/reset"]}]}}"#

    @Test func theFilesAreFetchedAtTheReadingAndNotAgainWhileFresh() throws {
        let world = try DaemonHarness()
        let ca = try TestCA.make()
        let server = try TestHTTPServer { request in
            request.path == "/.well-known/apple-app-site-association"
                ? DoubleResponse(status: 200, body: Data(Self.aasa.utf8)) : DoubleResponse(status: 404)
        }
        let proxy = try TLSProxy(forwardingTo: server.port, certificate: ca.serverCertificate, key: ca.serverKey)
        let app = """
            {"app": "com.example.Web",
             "web": {"appleAppId": "ABCDE12345.com.example.web", "androidPackage": "com.example.web",
                     "caFile": "\(ca.certificate)"},
             "links": [{"match": "https://127.0.0.1:\(proxy.port)/reset", "action": "forward"}]}
            """
        try Data(app.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/web.json"))
        let associations = world.cache.path + "/linkd/associations"
        let kept = { (try? FileManager.default.contentsOfDirectory(atPath: associations)) ?? [] }
        var folder: String { associations + "/" + (kept().first ?? "") }
        let log = world.root.path + "/daemon.log"
        let text = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

        let daemon = try world.startDaemon(["--idle-exit", "30"], stderrPath: log)
        #expect(world.waitUntil(.seconds(15)) { text().contains("association files: 2 of 2 were due") }, "\(text())")
        // Fetched through the app's own caFile: kept apart from the host's shared files.
        #expect(kept().count == 1 && kept()[0].hasPrefix("127.0.0.1:\(proxy.port)+"), "\(kept())")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: folder + "/apple-app-site-association")) == Data(Self.aasa.utf8)
        )
        let mode = try FileManager.default.attributesOfItem(atPath: folder + "/apple-app-site-association")
        #expect(mode[.posixPermissions] as? Int == 0o600)
        #expect(text().contains("127.0.0.1:\(proxy.port): apple-app-site-association fetched"))
        #expect(text().contains("127.0.0.1:\(proxy.port): assetlinks.json not fetched: HTTP 404"))
        #expect(!text().contains("/reset"), "no link in the log")
        #expect(
            server.requests.map(\.target).sorted() == [
                "/.well-known/apple-app-site-association", "/.well-known/assetlinks.json",
            ]
        )
        daemon.terminate()
        daemon.waitUntilExit()

        // Fresh, and the failure not an hour old: the next daemon fetches nothing.
        let again = try world.startDaemon(["--idle-exit", "30"], stderrPath: log)
        defer { again.terminate() }
        #expect(world.waitUntil(.seconds(15)) { text().contains("association files: 0 of 2 were due") }, "\(text())")
        #expect(server.requests.count == 2)
    }
}
