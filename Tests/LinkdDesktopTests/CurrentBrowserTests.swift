import Foundation
import LinkdDesktop
import Testing

/// The browser `linkd register --web` records: the one GIO opens https links with now, as the MIME Apps
/// specification orders the lists (desktop-specific first, the user's before the system's), linkd and other link
/// routers left out, the user's own https entry when no list names one, and a known browser last.
@Suite struct CurrentBrowserTests {
    typealias World = WebBrowserTests.World

    func list(_ world: World, _ path: String, https: String) throws {
        let url = world.root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("[Default Applications]\nx-scheme-handler/https=\(https)\n".utf8).write(to: url)
    }

    func environment(_ world: World, desktop: String? = nil) -> [String: String] {
        var environment = world.environment
        environment["XDG_CONFIG_HOME"] = world.root.appendingPathComponent("config").path
        environment["XDG_CONFIG_DIRS"] = world.root.appendingPathComponent("sysconfig").path
        environment["XDG_CURRENT_DESKTOP"] = desktop
        return environment
    }

    @Test func theListedDefaultWinsAndLinkdsOwnEntryIsPassedOver() throws {
        let world = try World()
        defer { try? FileManager.default.removeItem(at: world.root) }
        try world.write("a.desktop", "Exec=\(world.recording) %u\n")
        try world.write("b.desktop", "Exec=\(world.recording) %u\n", system: true)
        try world.write("chromium.desktop", "Exec=\(world.recording) %u\n", system: true)
        try list(world, "sysconfig/mimeapps.list", https: "b.desktop")
        #expect(WebBrowser.current(environment: environment(world))?.id == "b.desktop")
        try list(world, "config/mimeapps.list", https: "linkd-web.desktop;a.desktop;")
        #expect(WebBrowser.current(environment: environment(world))?.id == "a.desktop")
        #expect(WebBrowser.listedDefault(environment: environment(world)) == "linkd-web.desktop")
        #expect(
            WebBrowser.listGivingDefault(environment: environment(world)) == world.root.path + "/config/mimeapps.list"
        )
        try list(world, "config/gnome-mimeapps.list", https: "b.desktop")
        #expect(WebBrowser.current(environment: environment(world, desktop: "ubuntu:GNOME"))?.id == "b.desktop")
        #expect(
            WebBrowser.listGivingDefault(environment: environment(world, desktop: "ubuntu:GNOME"))
                == world.root.path + "/config/gnome-mimeapps.list"
        )
    }

    @Test func withNoListTheUsersHTTPSEntryThenAKnownBrowser() throws {
        let world = try World()
        defer { try? FileManager.default.removeItem(at: world.root) }
        try world.write("chromium.desktop", "Exec=\(world.recording) %u\n", system: true)
        #expect(WebBrowser.current(environment: environment(world))?.id == "chromium.desktop")
        try world.write("mine.desktop", "Exec=\(world.recording) %u\nMimeType=text/html;x-scheme-handler/https;\n")
        #expect(WebBrowser.current(environment: environment(world))?.id == "mine.desktop")
        try FileManager.default.removeItem(
            at: world.root.appendingPathComponent("system/applications/chromium.desktop")
        )
        try FileManager.default.removeItem(
            at: world.root.appendingPathComponent("home/.local/share/applications/mine.desktop")
        )
        #expect(WebBrowser.current(environment: environment(world)) == nil)
    }
}
