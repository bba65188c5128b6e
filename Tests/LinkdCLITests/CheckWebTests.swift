import Foundation
import LinkdSystem
import LinkdTestSupport
import Testing

/// `linkd check` on an app with a web section: each https host its links claim must list the app in the association
/// files its identity needs, fetched from a real HTTPS server of the tests; a file that does not list it, or cannot be
/// had, is a problem at that identity's key.
@Suite(.ownThread, .disabled(if: Sanitizer.isActive, Sanitizer.reason)) struct CheckWebTests {
    static func aasa(_ appID: String) -> String {
        #"{"applinks": {"details": [{"appID": "\#(appID)", "paths": ["/reset"]}]}}"#
    }

    /// An apps.d world whose one app claims `https://HOST/reset` on a real HTTPS server of the tests (the test CA's
    /// certificate, which the app trusts through its `web.caFile`) that answers `answer`.
    struct Site {
        let world: CheckCommandTests.World
        let server: TestHTTPServer
        let proxy: TLSProxy
        /// `127.0.0.1:PORT`.
        var host: String { "127.0.0.1:\(proxy.port)" }

        /// - Parameter web: the web section's identity keys (`"appleAppId": …`).
        init(web: String, answer: @escaping @Sendable (ReceivedRequest) -> DoubleResponse) throws {
            world = try CheckCommandTests.World()
            let ca = try TestCA.make()
            server = try TestHTTPServer(handler: answer)
            proxy = try TLSProxy(forwardingTo: server.port, certificate: ca.serverCertificate, key: ca.serverKey)
            try world.write(
                "web.json",
                """
                {"app": "com.example.Web",
                 "web": {\(web), "caFile": "\(ca.certificate)"},
                 "links": [{"match": "https://127.0.0.1:\(proxy.port)/reset", "action": "forward"}]}
                """
            )
        }

        /// `linkd check --config` on the world's apps.d (with `environment`).
        func check(environment: [String: String] = [:]) throws -> LinkdProcess.Output {
            try world.check(["--config", world.appsD], environment: environment)
        }
    }

    /// An apps.d with one app whose web section names `web`, its link on the TLS proxy's host, checked.
    private func check(web: String, listing appID: String) throws -> (LinkdProcess.Output, String) {
        let site = try Site(web: web) { request in
            request.path == "/.well-known/apple-app-site-association"
                ? DoubleResponse(status: 200, body: Data(Self.aasa(appID).utf8)) : DoubleResponse(status: 404)
        }
        return (try site.check(), "https://\(site.host)/.well-known/")
    }

    @Test func aHostThatListsTheAppIsOk() throws {
        let (output, _) = try check(
            web: #""appleAppId": "ABCDE12345.com.example.web""#,
            listing: "ABCDE12345.com.example.web"
        )
        #expect(output.stdout == "ok: 1 app, 1 link\n", "\(output)")
        #expect(output.status == 0)
    }

    @Test func aFileThatDoesNotListTheAppOrCannotBeHadIsAProblemAtItsKey() throws {
        let (output, address) = try check(
            web: #""appleAppId": "ABCDE12345.com.example.web", "androidPackage": "com.example.web""#,
            listing: "OTHERTEAM1.com.example.web"
        )
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(output)")
        #expect(
            lines.first?.hasSuffix(
                ": $.web.appleAppId: \(address)apple-app-site-association does not list ABCDE12345.com.example.web"
            ) == true,
            "\(lines)"
        )
        #expect(
            lines.last?.hasSuffix(": $.web.androidPackage: \(address)assetlinks.json cannot be had: HTTP 404") == true
        )
        #expect(lines.allSatisfy { $0.contains("web.json:2:") }, "at the web section's line")
        #expect(output.status == 65)
    }

    /// A site that serves its Apple file at the root alone verifies the app, and status says where the file is.
    @Test func aFileServedAtTheRootAloneVerifiesTheApp() throws {
        let site = try Site(web: #""appleAppId": "\#(Self.appID)""#) { request in
            request.path == "/apple-app-site-association"
                ? DoubleResponse(status: 200, body: Data(Self.aasa(Self.appID).utf8)) : DoubleResponse(status: 404)
        }
        #expect(try site.check() == .init(stdout: "ok: 1 app, 1 link\n", stderr: "", status: 0))
        // Status reads the user's apps.d and the cache check filled.
        let world = site.world
        let config = world.home + "/.config/linkd/apps.d"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: world.appsD + "/web.json", toPath: config + "/web.json")
        let status = try LinkdProcess.run(
            ["status"],
            environment: [
                "HOME": world.home, "XDG_CONFIG_HOME": world.home + "/.config",
                "XDG_CACHE_HOME": world.home + "/.cache",
                "XDG_RUNTIME_DIR": world.home,
            ]
        )
        #expect(
            status.stdout.contains(
                "\(site.host): apple-app-site-association (at /apple-app-site-association) lists \(Self.appID): "
                    + "verified for com.example.Web"
            ),
            "\(status)"
        )
    }

    /// A file with a part that cannot be read keeps its other parts, as a phone reads it: the app is verified, and
    /// check names the part left out as a warning.
    @Test func aPartOfTheFileThatCannotBeReadIsAWarningAndTheRestStands() throws {
        let file = #"""
            {"applinks": {"details": [{"appIDs": ["OTHERTEAM1.x"], "components": [{"/": 5}]},
              {"appIDs": ["\#(Self.appID)"], "components": [{"/": "/reset", "?": {"t": "?*", "n": 1}}]}]}}
            """#
        let site = try Site(web: #""appleAppId": "\#(Self.appID)""#) { request in
            request.path == "/.well-known/apple-app-site-association"
                ? DoubleResponse(status: 200, body: Data(file.utf8)) : DoubleResponse(status: 404)
        }
        let output = try site.check()
        let address = "https://\(site.host)/.well-known/apple-app-site-association"
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(output.status == 0, "\(output)")
        #expect(lines.last == "ok: 1 app, 1 link (2 warnings)", "\(output)")
        #expect(
            lines.dropLast().map { $0.split(separator: ": ", maxSplits: 1).last.map(String.init) ?? $0 } == [
                "$.web.appleAppId: warning: \(address) has a part that cannot be read, left out (the rest stands): "
                    + "$.applinks.details[0].components[0]./: expected a string; its entry is left out",
                "$.web.appleAppId: warning: \(address) has a part that cannot be read, left out (the rest stands): "
                    + "$.applinks.details[1].components[0].?.n: expected a string; the rule matches any query",
            ],
            "\(output)"
        )
    }

    /// An assetlinks.json read as Google's tests read it: a statement that cannot be read, and an included file that
    /// cannot be had, are warnings named by their JSON path and address; the app's statement, in the file it includes,
    /// verifies it; the fingerprint the app expects must be listed.
    @Test func anAssetLinksWithBrokenPartsAndAnIncludeVerifiesTheApp() throws {
        #expect(try checkAssetLinks(expecting: Self.fingerprint).status == 0)
        let other = String(repeating: "AB:", count: 31) + "AB"
        let refused = try checkAssetLinks(expecting: other)
        #expect(refused.status == 65, "\(refused)")
        #expect(
            refused.stdout.contains("assetlinks.json does not list com.example.web with a fingerprint the app expects")
        )
    }

    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    private func checkAssetLinks(expecting expected: String) throws -> LinkdProcess.Output {
        let statement =
            #"{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "#
            + #""package_name": "com.example.web", "sha256_cert_fingerprints": ["\#(Self.fingerprint)"]}}"#
        let port = Lock(0)  // the TLS proxy's, known once it runs
        let web = #""androidPackage": "com.example.web", "androidFingerprints": ["\#(expected)"]"#
        let site = try Site(web: web) { request in
            let base = "https://127.0.0.1:\(port.withLock { $0 })"
            return switch request.path {
            case "/.well-known/assetlinks.json":
                DoubleResponse(
                    status: 200,
                    body: Data(#"[{}, {"include": "\#(base)/a.json"}, {"include": "\#(base)/b.json"}]"#.utf8)
                )
            case "/a.json": DoubleResponse(status: 200, body: Data("[\(statement)]".utf8))
            default: DoubleResponse(status: 404)
            }
        }
        port.withLock { $0 = Int(site.proxy.port) }
        let output = try site.check()
        let address = "https://\(site.host)/.well-known/assetlinks.json"
        let lines = output.stdout.split(separator: "\n").map(String.init)
        guard expected == Self.fingerprint else { return output }
        #expect(lines.last == "ok: 1 app, 1 link (2 warnings)", "\(output)")
        let leftOut =
            "$.web.androidFingerprints: warning: \(address) has a part that cannot be read, left out (the rest "
            + "stands): "
        #expect(
            lines.dropLast().map { $0.split(separator: ": ", maxSplits: 1).last.map(String.init) ?? $0 } == [
                leftOut + "$[0].relation: expected an array; its statement is left out",
                leftOut + "https://\(site.host)/b.json: HTTP 404; its statements are left out",
            ],
            "\(output)"
        )
        return output
    }

    /// A file that could not be fetched again is used for a week, with a warning; one the site withdrew (a 4xx) is a
    /// problem at once.
    @Test func aStaleFileIsAWarningAndAWithdrawnOneAProblem() throws {
        let answer = Lock(200)
        let site = try Site(web: #""appleAppId": "\#(Self.appID)""#) { _ in
            let status = answer.withLock { $0 }
            return DoubleResponse(status: status, body: status == 200 ? Data(Self.aasa(Self.appID).utf8) : Data())
        }
        let (world, proxy) = (site.world, site.proxy)
        #expect(try site.check() == .init(stdout: "ok: 1 app, 1 link\n", stderr: "", status: 0))
        // Two days later the site is down. (The app's own caFile keeps its files apart, in `HOST+KEY`.)
        let associations = world.home + "/.cache/linkd/associations"
        let folders = try FileManager.default.contentsOfDirectory(atPath: associations)
        #expect(folders.count == 1 && folders[0].hasPrefix("127.0.0.1:\(proxy.port)+"), "\(folders)")
        let state = associations + "/" + (folders.first ?? "") + "/apple-app-site-association.state"
        let twoDaysAgo = Double(time(nil)) - 2 * 86_400
        try Data("fetched=\(twoDaysAgo)\nattempted=\(twoDaysAgo)\n".utf8).write(to: URL(fileURLWithPath: state))
        answer.withLock { $0 = 503 }
        let stale = try site.check()
        let address = "https://127.0.0.1:\(proxy.port)/.well-known/apple-app-site-association"
        #expect(stale.status == 0, "\(stale)")
        #expect(
            stale.stdout.hasSuffix(
                ": $.web.appleAppId: warning: \(address) is over a day old and could not be fetched again (HTTP 503); "
                    + "it is used until it is 7 days old\nok: 1 app, 1 link (1 warning)\n"
            ),
            "\(stale)"
        )
        // An hour later the site says the file is gone: it is gone here too.
        let anHourAgo = Double(time(nil)) - 3_601
        try Data("fetched=\(twoDaysAgo)\nattempted=\(anHourAgo)\nfailure=HTTP 503\n".utf8)
            .write(to: URL(fileURLWithPath: state))
        answer.withLock { $0 = 404 }
        let withdrawn = try site.check()
        #expect(withdrawn.status == 65, "\(withdrawn)")
        #expect(
            withdrawn.stdout.hasSuffix(
                ": $.web.appleAppId: \(address) cannot be had: HTTP 404 (and HTTP 404 at /apple-app-site-association)\n"
            ),
            "\(withdrawn)"
        )
    }

    static let appID = "ABCDE12345.com.example.web"

    /// A file one app fetched through its own caFile verifies that app alone: another app claiming the same host,
    /// which trusts only the system's CAs, is not verified by it, whichever was fetched last.
    @Test func aFileFetchedThroughAnAppsOwnCAVerifiesThatAppAlone() throws {
        let world = try CheckCommandTests.World()
        let ca = try TestCA.make()
        let both =
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.a", "ABCDE12345.com.example.b"], "#
            + #""paths": ["*"]}]}}"#
        let server = try TestHTTPServer { _ in DoubleResponse(status: 200, body: Data(both.utf8)) }
        let proxy = try TLSProxy(forwardingTo: server.port, certificate: ca.serverCertificate, key: ca.serverKey)
        let host = "127.0.0.1:\(proxy.port)"
        try world.write(
            "a.json",
            """
            {"app": "com.example.A", "web": {"appleAppId": "ABCDE12345.com.example.a"},
             "links": [{"match": "https://\(host)/a", "action": "forward"}]}
            """
        )
        try world.write(
            "b.json",
            """
            {"app": "com.example.B", "web": {"appleAppId": "ABCDE12345.com.example.b", "caFile": "\(ca.certificate)"},
             "links": [{"match": "https://\(host)/b", "action": "forward"}]}
            """
        )
        for _ in 0..<2 {  // the second time B's file is fresh in the cache, and still A's is not
            let output = try world.check(["--config", world.appsD])
            let lines = output.stdout.split(separator: "\n").map(String.init)
            #expect(output.status == 65, "\(output)")
            #expect(lines.count == 1, "\(output)")
            #expect(lines.first?.contains("a.json:1:") == true, "\(lines)")
            #expect(
                lines.first?.contains(
                    ": $.web.appleAppId: https://\(host)/.well-known/apple-app-site-association cannot be had: "
                ) == true,
                "\(lines)"
            )
        }
    }
}
