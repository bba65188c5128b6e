import Foundation
import LinkdTestSupport
import Testing

/// The edges of web links, clicked with `gio open`: association files a host serves wrong (a redirect, a file over
/// 128 KiB, a slow answer, garbage) leave the host unverified with the reason; a browser that hands the link back stops
/// at the third arrival; a vanished browser gives way to an installed one; a browser taking the default back shows in
/// `linkd status`; and the resets of both backends run from a click, with no browser.
@Suite(.ownThread, .serialized, .disabled(if: Sanitizer.isActive, Sanitizer.reason)) struct WebClickEdgeTests {
    @Test(arguments: [
        ("301", "not fetched (redirected (HTTP 301)"),
        ("big", "not fetched (the answer was larger than 128 KiB"),
        ("slow", "not fetched (no answer within the time limit"),
        ("garbage", "not fetched (the file cannot be read: $: not JSON"),
    ])
    func aBadlyServedFileLeavesTheHostUnverifiedAndTheClickGoesToTheBrowser(_ fault: String, _ said: String) throws {
        let web = try WebClickWorld { _ in
            switch fault {
            case "301": return DoubleResponse(status: 301, headers: [("Location", "https://127.0.0.1/aasa")])
            case "big":
                return DoubleResponse(status: 200, body: Data(repeating: UInt8(ascii: " "), count: 130 * 1_024))
            case "slow":
                Thread.sleep(forTimeInterval: 7)  // the double answers after the 5 s limit on purpose
                return DoubleResponse(status: 200, body: Data(WebClickTests.aasa.utf8))
            default: return DoubleResponse(status: 200, body: Data("<html>moved</html>".utf8))
            }
        }
        try web.writeApp(
            "web.json",
            """
            {"app": "com.example.Web", "web": {"appleAppId": "\(WebClickTests.appID)", "caFile": "\(web.ca.certificate)"},
             "links": [{"match": "https://\(web.host)/open/{id}", "action": {"exec": ["/bin/true"]}}]}
            """
        )
        let registered = try web.linkd(["register", "--web"])
        #expect(registered.status == 0)
        let line = "  \(web.host): apple-app-site-association \(said)"
        #expect(registered.stdout.contains(line), "\(registered.stdout)")
        let link = "https://\(web.host)/open/1"
        #expect(try web.click(link) == 0)
        #expect(web.browserStarts(count: 1) == [["--new-tab", link]])
        #expect(web.world.daemonPIDs().isEmpty)
        let status = try web.linkd(["status"])
        #expect(status.stdout.contains(line), "\(status.stdout)")
    }

    /// A world whose browser hands every link to "the default browser" (linkd) and appends linkd's exit status to
    /// the returned log.
    private static func bouncingWorld() throws -> (WebClickWorld, log: String) {
        let web = try WebClickTests.world()
        let log = web.world.root.appendingPathComponent("bounces.log").path
        try web.writeBrowser(
            "bouncer.desktop",
            program: WebClickWorld.recording(to: web.browserLog.path)
                + "\n\(LinkdProcess.executable.path) open --web \"$2\"; echo \"exit $?\" >> \(log)"
        )
        let list = "[Default Applications]\nx-scheme-handler/https=bouncer.desktop\n"
        try Data(list.utf8).write(to: web.world.config.appendingPathComponent("mimeapps.list"))
        return (web, log)
    }

    @Test func aBrowserThatHandsTheLinkBackIsStartedTwiceAndTheThirdArrivalStops() throws {
        let (web, log) = try Self.bouncingWorld()
        #expect(try web.linkd(["register", "--web"]).stdout.hasPrefix("registered: web links (others open in bouncer"))
        let link = "https://bouncing.example/watch?v=1"
        #expect(try web.click(link) == 0)
        let exits = { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n") }
        #expect(web.world.waitUntil(.seconds(10)) { exits().count == 2 })
        #expect(Set(exits()) == ["exit 75", "exit 0"], "the second hand-back stopped; the first went to the browser")
        #expect(web.browserStarts(count: 2) == [["--new-tab", link], ["--new-tab", link]])
        let passes = try String(contentsOfFile: web.world.runtime.path + "/linkd/web-passes", encoding: .utf8)
        #expect(!passes.contains("bouncing") && passes.split(separator: "\n").count == 2)
    }

    /// A mail scanner's wrapper is opened only to an https link of a host whose site admits it for the app: one that
    /// wraps a custom scheme (a forged `google.com/url?q=myapp://…`) goes to the browser as clicked, which asks before
    /// it opens an app, and the app's program never runs.
    @Test func aWrapperOfACustomSchemeGoesToTheBrowserAsClicked() throws {
        let web = try WebClickTests.world()
        #expect(try web.linkd(["register", "--web"]).status == 0)
        let forged = "https://www.google.com/url?q=myapp%3A%2F%2Fnote%2F7&sa=D"
        #expect(try web.click(forged) == 0)
        #expect(web.browserStarts(count: 1) == [["--new-tab", forged]])
        let inner = "https://\(web.host)/open/8"
        let wrapped =
            "https://www.google.com/url?q=" + (inner.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        #expect(try web.click(wrapped) == 0)
        #expect(web.world.waitUntil(.seconds(10)) { web.world.receivedPayloads().count == 1 })
        #expect(web.world.receivedPayloads().map { $0["url"] as? String } == [inner], "only the https link inside")
        #expect(web.browserStarts(count: 1).count == 1)
    }

    /// The person clicks the same link again and again (a page slow to come up): every click opens it. Only a link
    /// the browser linkd started hands back counts toward the loop rule.
    @Test func thePersonsOwnRepeatedClicksEachOpenTheLink() throws {
        let web = try WebClickTests.world()
        #expect(try web.linkd(["register", "--web"]).status == 0)
        let link = "https://unclaimed.example/watch?v=2"
        for _ in 0..<4 { #expect(try web.click(link) == 0) }
        #expect(web.browserStarts(count: 4).count == 4)
    }

    /// Without a runtime folder the loop rule keeps its record in the cache's private folder, and still stops a
    /// browser that hands the link back.
    @Test func aBrowserThatHandsTheLinkBackIsStoppedWithNoRuntimeFolder() throws {
        let (web, log) = try Self.bouncingWorld()
        #expect(try web.linkd(["register", "--web"]).status == 0)
        var environment = web.environment
        environment.removeValue(forKey: "XDG_RUNTIME_DIR")
        let link = "https://bouncing.example/watch?v=3"
        let gio = try SpawnedProcess("/usr/bin/gio", ["open", link], environment: environment)
        gio.waitUntilExit()
        #expect(gio.terminationStatus == 0)
        let exits = { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n") }
        #expect(web.world.waitUntil(.seconds(10)) { exits().count == 2 })
        #expect(Set(exits()) == ["exit 75", "exit 0"], "the second hand-back stopped")
        #expect(web.browserStarts(count: 2).count == 2)
        let passes = try String(contentsOfFile: web.world.cache.path + "/linkd/web-passes", encoding: .utf8)
        #expect(passes.split(separator: "\n").count == 2)
        let mode = try FileManager.default.attributesOfItem(atPath: web.world.cache.path + "/linkd")[.posixPermissions]
        #expect(mode as? Int == 0o700)
    }

    @Test func aVanishedBrowserGivesWayToAnInstalledOne() throws {
        let web = try WebClickTests.world()
        #expect(try web.linkd(["register", "--web"]).status == 0)
        try FileManager.default.removeItem(
            at: web.world.root.appendingPathComponent("data/applications/recbrowser.desktop")
        )
        try web.writeBrowser(
            "chromium.desktop",
            program: WebClickWorld.recording(to: web.browserLog.path),
            system: true
        )
        let status = try web.linkd(["status"])
        #expect(status.stdout.contains("web links: come to linkd; others open in chromium.desktop\n"), "\(status)")
        #expect(status.stdout.contains("  recbrowser.desktop, the browser linkd replaced, is gone\n"))
        let link = "https://elsewhere.example/"
        #expect(try web.click(link) == 0)
        #expect(web.browserStarts(count: 1) == [["--new-tab", link]])
    }

    @Test func aBrowserTakingTheDefaultBackShowsInStatus() throws {
        let web = try WebClickTests.world()
        #expect(try web.linkd(["register", "--web"]).status == 0)
        let healthy = try web.linkd(["status", "--json"])
        #expect(healthy.stdout.contains(#""web": {"registered": true, "handler": "linkd-web.desktop""#), "\(healthy)")
        #expect(healthy.stdout.contains(#""verification": "verified""#))
        // The browser makes itself the default again, as `gio mime` (and Firefox's "make default") writes it.
        let set = try web.world.runProgram(
            "/usr/bin/gio",
            ["mime", "x-scheme-handler/https", "recbrowser.desktop"],
            web.environment
        )
        #expect(set.status == 0)
        let status = try web.linkd(["status"])
        #expect(status.status == 1)
        #expect(status.stdout.contains("web links: recbrowser.desktop took them back; run 'linkd register --web'\n"))
        #expect(
            try web.linkd(["register", "--web"]).stdout.hasPrefix("registered: web links (others open in recbrowser")
        )
        #expect(try web.linkd(["status"]).stdout.contains("web links: come to linkd"))
    }

    /// Clicked as mailed, and clicked as Outlook's Safe Links wrap it (the wrapper's host is never asked: it does not
    /// even resolve here).
    @Test(arguments: [false, true])
    func anAppServicesResetRunsFromAUniversalLinkClick(wrapped: Bool) throws {
        let reset = try ResetWorld()
        let web = try WebClickWorld(world: reset.world) { request in
            let aasa = #"{"applinks": {"details": [{"appID": "ABCDE12345.com.example.univ", "paths": ["/reset"]}]}}"#
            return request.path == "/.well-known/apple-app-site-association"
                ? DoubleResponse(status: 200, body: Data(aasa.utf8)) : DoubleResponse(status: 404)
        }
        try web.writeApp(
            "univ.json",
            """
            {"app": "com.example.Univ",
             "web": {"appleAppId": "ABCDE12345.com.example.univ", "caFile": "\(web.ca.certificate)"},
             "links": [{"match": "https://\(web.host)/reset", "format": "appservices", "action": "reset"}],
             "backend": {"kind": "appservices", "url": "\(reset.appServices.baseURL)", "appId": "\(AppServicesDouble.appID)"}}
            """
        )
        #expect(try web.linkd(["register", "--web"]).status == 0)
        let askpass = try reset.recordingAskpass("asked", then: "echo New-pass-5c1d")
        let token = reset.appServices.resetToken(for: "ada@example.com")
        let mailed = "https://\(web.host)/reset?token=\(token.token)&tokenId=\(token.tokenID)"
        let encoded = mailed.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? mailed
        let link = wrapped ? "https://nam12.safelinks.protection.outlook.com/?url=\(encoded)&reserved=0" : mailed
        #expect(try web.click(link, extra: ["LINKD_ASKPASS": askpass.program.path]) == 0)
        #expect(
            web.world.waitUntil(.seconds(20)) { reset.appServices.password(of: "ada@example.com") == "New-pass-5c1d" }
        )
        let resets = reset.appServices.requests.filter { $0.path.hasSuffix("/local-userpass/reset") }
        #expect(resets.count == 1)
        #expect(((try? String(contentsOf: askpass.record, encoding: .utf8)) ?? "").split(separator: "\n").count == 1)
        #expect(web.browserStarts(count: 0).isEmpty)
        #expect(!reset.leakSurfaces().contains(token.token))
    }

    /// A reset world behind TLS, registered for web links: its clicks, its GoTrue double's TLS address and a recovery
    /// token hash of ada@example.com's.
    private static func verifyWorld() throws -> (ResetWorld, WebClickWorld, baseURL: String, hash: String) {
        let reset = try ResetWorld(tls: (try TestCA.make(), true))
        let web = try WebClickWorld(world: reset.world) { _ in DoubleResponse(status: 404) }
        #expect(try web.linkd(["register", "--web"]).status == 0)
        let proxy = try #require(reset.proxy)
        let hash = try #require(reset.gotrue.recoveryTokenHash(for: "ada@example.com"))
        return (reset, web, proxy.baseURL, hash)
    }

    @Test func theSupabaseVerifyLinkIsTakenStraightFromAClick() throws {
        let (reset, web, baseURL, hash) = try Self.verifyWorld()
        let link = "\(baseURL)/auth/v1/verify?token=\(hash)&type=recovery&redirect_to=resetapp://reset"
        let askpass = try reset.recordingAskpass("asked", then: "echo New-pass-9e2b")
        #expect(try web.click(link, extra: ["LINKD_ASKPASS": askpass.program.path]) == 0)
        #expect(web.world.waitUntil(.seconds(20)) { reset.gotrue.password(of: "ada@example.com") == "New-pass-9e2b" })
        #expect(web.browserStarts(count: 0).isEmpty)
    }

    /// A reset or magic link asked for on the project's website is a verify link of the app's own backend too, with a
    /// `redirect_to` of the website: it is the browser's, byte for byte, and no request spends it on the way.
    @Test(arguments: ["https://notes.example.com/welcome", "", "com.example.other://reset"])
    func aVerifyLinkForTheWebsiteGoesToTheBrowserUnspent(_ redirect: String) throws {
        let (reset, web, baseURL, hash) = try Self.verifyWorld()
        let encoded = redirect.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? redirect
        let link =
            "\(baseURL)/auth/v1/verify?token=\(hash)&type=recovery"
            + (redirect.isEmpty ? "" : "&redirect_to=\(encoded)")
        let before = reset.gotrue.requests.count
        let password = reset.gotrue.password(of: "ada@example.com")
        #expect(try web.click(link) == 0)
        #expect(web.browserStarts(count: 1).map(\.last) == [link])
        #expect(reset.gotrue.requests.count == before, "the verify link was spent")
        #expect(reset.gotrue.password(of: "ada@example.com") == password)
        // The same link typed to 'linkd open' is no app's either: nothing is sent for it.
        #expect(try reset.world.run(["open", link]).status == 1)
        #expect(reset.gotrue.requests.count == before)
    }

    @Test func aDesktopListThatComesFirstIsNamedAtRegister() throws {
        let web = try WebClickTests.world()
        let desktopList = web.world.config.appendingPathComponent("gnome-mimeapps.list")
        try Data("[Default Applications]\nx-scheme-handler/https=recbrowser.desktop\n".utf8).write(to: desktopList)
        let registered = try web.linkd(["register", "--web"], extra: ["XDG_CURRENT_DESKTOP": "GNOME"])
        #expect(registered.status == 0)
        #expect(
            registered.stderr.hasSuffix(
                "warning: \(desktopList.path) gives https links to recbrowser.desktop and comes before "
                    + "\(web.world.config.path)/mimeapps.list: remove its x-scheme-handler/http and https lines, or "
                    + "web links keep opening there\n"
            ),
            "\(registered)"
        )
        #expect(!(try web.linkd(["register", "--web"]).stderr.contains("gnome-mimeapps.list")))
    }
}
