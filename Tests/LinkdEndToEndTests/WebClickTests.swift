import Foundation
import LinkdTestSupport
import Testing

/// Web links clicked as a mail client clicks them — `gio open`, and `xdg-open` with `DISPLAY` set — after
/// `linkd register --web`: a link the app's own site assigns to it (a real HTTPS server of the tests serves the
/// apple-app-site-association) reaches the app; every other link reaches the recording browser byte for byte, without a
/// daemon, a log line or a file that names it; `unregister --web` gives the list back as it was.
@Suite(.ownThread, .serialized, .disabled(if: Sanitizer.isActive, Sanitizer.reason)) struct WebClickTests {
    static let appID = "ABCDE12345.com.example.web"
    static let aasa = """
        {"applinks": {"details": [{"appIDs": ["\(appID)"], "components": [
          {"/": "/open/private*", "exclude": true}, {"/": "/open/*"}]}]}}
        """

    /// A world whose server serves ``aasa``, with an app that claims `https://HOST/open/{id}` (run by the world's
    /// recording program) and names `appID` in its web section.
    static func world(appID: String = Self.appID) throws -> WebClickWorld {
        let web = try WebClickWorld { request in
            request.path == "/.well-known/apple-app-site-association"
                ? DoubleResponse(status: 200, body: Data(Self.aasa.utf8)) : DoubleResponse(status: 404)
        }
        try web.writeApp(
            "web.json",
            """
            {"app": "com.example.Web", "web": {"appleAppId": "\(appID)", "caFile": "\(web.ca.certificate)"},
             "links": [{"match": "https://\(web.host)/open/{id}",
                        "action": {"exec": ["\(web.world.root.path)/record.sh", "--open-link"]}}]}
            """
        )
        return web
    }

    @Test func anUnclaimedLinkGoesToTheBrowserByteForByteWithNoDaemonAndNoTrace() throws {
        let web = try Self.world()
        let registered = try web.linkd(["register", "--web"])
        #expect(registered.status == 0, "\(registered)")
        #expect(registered.stdout.hasPrefix("registered: web links (others open in recbrowser.desktop)\n"))
        #expect(
            registered.stdout.contains(
                "  \(web.host): apple-app-site-association lists \(Self.appID): verified for com.example.Web alone, "
                    + "through its own caFile or proxy\n"
            ),
            "\(registered.stdout)"
        )
        #expect(try web.world.gioDefault(of: "https", web.environment) == "linkd-web.desktop")
        // The last one is in Outlook's wrapper: the link inside is no app's, so the browser gets it wrapped, as clicked.
        let links = [
            "https://unclaimed.example/p%20q?x=1&y=%2B#frag", "http://plain.example/a?token=s3cret",
            "https://\(web.host)/other/1",
            "https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Fwrapped.example%2Fa&reserved=0",
        ]
        #expect(try web.click(links[0]) == 0)
        #expect(try web.click(links[1], with: "xdg-open") == 0)
        #expect(try web.click(links[2]) == 0)
        #expect(try web.click(links[3]) == 0)
        let starts = web.browserStarts(count: 4)
        #expect(Set(starts) == Set(links.map { ["--new-tab", $0] }), "\(starts)")
        #expect(web.world.daemonPIDs().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: web.world.socketPath))
        for host in ["unclaimed.example", "plain.example", "s3cret", "/other/1", "wrapped.example", "safelinks"] {
            #expect(web.filesHolding(host).isEmpty, "\(host) is in \(web.filesHolding(host))")
        }
    }

    @Test func aVerifiedLinkReachesTheAppAndAnExcludedOneTheBrowser() throws {
        let web = try Self.world()
        #expect(try web.linkd(["register", "--web"]).status == 0)
        let claimed = "https://\(web.host)/open/42?x=1"
        #expect(try web.click(claimed) == 0)
        #expect(web.world.waitUntil(.seconds(10)) { web.world.receivedPayloads().count == 1 })
        #expect(web.world.receivedPayloads().first?["url"] as? String == claimed)
        let excluded = "https://\(web.host)/open/private-7"
        #expect(try web.click(excluded, with: "xdg-open") == 0)
        #expect(web.browserStarts(count: 1) == [["--new-tab", excluded]])
        #expect(web.world.receivedPayloads().count == 1)
    }

    @Test func aHostThatDoesNotListTheAppIsNotVerifiedAndItsLinksOpenInTheBrowser() throws {
        let web = try Self.world(appID: "OTHERTEAM1.com.example.web")
        let registered = try web.linkd(["register", "--web"])
        #expect(
            registered.stdout.contains(
                "\(web.host): apple-app-site-association does not list OTHERTEAM1.com.example.web: not verified"
            ),
            "\(registered)"
        )
        let link = "https://\(web.host)/open/42"
        #expect(try web.click(link) == 0)
        #expect(web.browserStarts(count: 1) == [["--new-tab", link]])
        #expect(web.world.daemonPIDs().isEmpty)
    }

    @Test func anAppThatCannotTakeTheLinkNowSendsItToTheBrowser() throws {
        let web = try Self.world()
        #expect(try web.linkd(["register", "--web"]).status == 0)
        // The program is gone since the configuration was read: the daemon says so, and the browser opens the page.
        try FileManager.default.removeItem(at: web.world.root.appendingPathComponent("record.sh"))
        let link = "https://\(web.host)/open/9"
        #expect(try web.click(link) == 0)
        #expect(web.browserStarts(count: 1) == [["--new-tab", link]])
        #expect(web.world.receivedPayloads().isEmpty)
    }

    @Test func unregisteringGivesTheListBackByteForByteAndTwiceChangesNothing() throws {
        let web = try Self.world()
        let before = try #require(web.world.file("config/mimeapps.list"))
        #expect(try web.linkd(["register", "--web"]).status == 0)
        #expect(try web.linkd(["register", "--web"]).stdout.hasPrefix("already registered: web links"))
        let undone = try web.linkd(["unregister", "--web"])
        #expect(undone.stdout == "unregistered: web links (restored: recbrowser.desktop)\n", "\(undone)")
        #expect(web.world.file("config/mimeapps.list") == before)
        #expect(web.world.file("data/applications/linkd-web.desktop") == nil)
        #expect(try web.linkd(["unregister", "--web"]).stdout == "not registered: web links\n")
        #expect(web.world.file("config/mimeapps.list") == before)
        #expect(try web.world.gioDefault(of: "https", web.environment) == "recbrowser.desktop")
    }

    @Test func withNoBrowserRegisteringIsRefusedAndChangesNothing() throws {
        let web = try Self.world()
        try FileManager.default.removeItem(
            at: web.world.root.appendingPathComponent("data/applications/recbrowser.desktop")
        )
        let before = web.world.file("config/mimeapps.list")
        let refused = try web.linkd(["register", "--web"])
        #expect(refused.status == 69, "\(refused)")
        #expect(refused.stderr.contains("no web browser is installed to pass web links on to; nothing changed"))
        #expect(web.world.file("config/mimeapps.list") == before)
        #expect(web.world.file("data/applications/linkd-web.desktop") == nil)
    }

    @Test func aDBusAppIsAskedOnlyWhenTheBusKnowsItsName() throws {
        let bus = try PrivateSessionBus(activatable: true)
        let web = try Self.world()
        try web.writeApp(
            "web.json",
            """
            {"app": "com.example.Web", "web": {"appleAppId": "\(Self.appID)", "caFile": "\(web.ca.certificate)"},
             "links": [{"match": "https://\(web.host)/open/{id}", "action": {"dbus": "\(PrivateSessionBus.appID)"}},
                       {"match": "https://\(web.host)/open/gone/{id}", "action": {"dbus": "org.example.NotInstalled"}}]}
            """
        )
        let onBus = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
        #expect(try web.linkd(["register", "--web"], extra: onBus).status == 0)
        // The name is activatable on this bus: the app is started and gets the link.
        let known = "https://\(web.host)/open/7"
        #expect(try web.click(known, extra: onBus) == 0)
        #expect(web.world.waitUntil(.seconds(15), folders: [bus.root.path]) { bus.openedURIs() == [known] })
        // No connection owns the other name and no service file names it: the browser opens the page.
        let unknown = "https://\(web.host)/open/gone/8"
        #expect(try web.click(unknown, extra: onBus) == 0)
        #expect(web.browserStarts(count: 1) == [["--new-tab", unknown]])
        #expect(bus.openedURIs() == [known])
    }

    @Test func withNoBrowserLeftTheClickSaysSoAndExits69() throws {
        let web = try Self.world()
        #expect(try web.linkd(["register", "--web"]).status == 0)
        try FileManager.default.removeItem(
            at: web.world.root.appendingPathComponent("data/applications/recbrowser.desktop")
        )
        let output = try web.linkd(["open", "--web", "https://nowhere.example/a"])
        #expect(output.status == 69)
        #expect(
            output.stderr
                == "Error: no web browser is installed to open the link in; install one and click it again\n"
        )
        #expect(web.world.daemonPIDs().isEmpty)
    }
}
