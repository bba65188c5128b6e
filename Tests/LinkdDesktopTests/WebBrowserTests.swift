import Foundation
import LinkdDesktop
import LinkdTestSupport
import Testing

/// The browser web links are passed on to: found in the XDG data folders as a launcher finds it, checked (its
/// programs there, not in a terminal, not linkd or another router), the first known one when the recorded one is gone,
/// and started detached with the link as one argument and linkd's own variables left out.
@Suite struct WebBrowserTests {
    /// Throwaway XDG data folders, a recording program, and entries written into them.
    struct World {
        let root: URL
        let environment: [String: String]
        let recording: String
        let recorded: String

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("browser-\(UUID().uuidString)")
            for folder in ["home/.local/share/applications", "system/applications"] {
                try FileManager.default.createDirectory(
                    at: root.appendingPathComponent(folder),
                    withIntermediateDirectories: true
                )
            }
            recorded = root.appendingPathComponent("opened.txt").path
            recording = root.appendingPathComponent("browser.sh").path
            // One line per start: the arguments, then the variables it was given that matter here.
            try ProgramFile.write(
                """
                #!/bin/sh
                printf '%s|' "$@" >> \(recorded)
                printf 'LINKD=%s GIO=%s TOKEN=%s\\n' "${LINKD_SOCKET-}" "${GIO_LAUNCHED_DESKTOP_FILE-}" \
                "${XDG_ACTIVATION_TOKEN-}" >> \(recorded)

                """,
                to: URL(fileURLWithPath: recording)
            )
            environment = [
                "HOME": root.appendingPathComponent("home").path, "PATH": "/usr/bin:/bin",
                "XDG_DATA_HOME": root.appendingPathComponent("home/.local/share").path,
                "XDG_DATA_DIRS": root.appendingPathComponent("system").path,
            ]
        }

        func write(_ id: String, _ body: String, system: Bool = false) throws {
            let folder = system ? "system/applications" : "home/.local/share/applications"
            try Data(("[Desktop Entry]\nType=Application\nName=Browser\n" + body).utf8)
                .write(to: root.appendingPathComponent(folder + "/" + id))
        }

        /// The lines the recording program wrote, once it has written `count` (read again at each change).
        func opened(count: Int) throws -> [String] {
            let read = {
                ((try? String(contentsOfFile: recorded, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            }
            _ = FileEvents([root.path]).wait(until: .now + .seconds(10)) { read().count >= count }
            return read()
        }
    }

    @Test func theRecordedBrowserIsStartedWithTheLinkAsOneArgument() throws {
        let world = try World()
        defer { try? FileManager.default.removeItem(at: world.root) }
        try world.write("recorded.desktop", "Exec=\(world.recording) --new-tab %u\n")
        let browser = try #require(WebBrowser.choose(recorded: "recorded.desktop", environment: world.environment))
        #expect(browser.id == "recorded.desktop")
        let link = "https://a.example/p%20q?x=1&y=%2B#frag"
        var environment = world.environment
        environment["LINKD_SOCKET"] = "/run/linkd"
        environment["GIO_LAUNCHED_DESKTOP_FILE"] = "/home/u/.local/share/applications/linkd-web.desktop"
        environment["XDG_ACTIVATION_TOKEN"] = "token-1"
        try browser.open(link, environment: environment)
        #expect(try world.opened(count: 1) == ["--new-tab|\(link)|LINKD= GIO= TOKEN=token-1"])
    }

    @Test func aGoneRecordedBrowserFallsBackToAKnownOne() throws {
        let world = try World()
        defer { try? FileManager.default.removeItem(at: world.root) }
        try world.write("recorded.desktop", "Exec=/nonexistent/browser %u\n")
        try world.write("chromium.desktop", "Exec=\(world.recording) %U\n", system: true)
        #expect(
            WebBrowser.choose(recorded: "recorded.desktop", environment: world.environment)?.id == "chromium.desktop"
        )
        #expect(
            WebBrowser.choose(recorded: "missing.desktop", environment: world.environment)?.id == "chromium.desktop"
        )
    }

    @Test(arguments: [
        ("linkd-web.desktop", "Exec=\(FileManager.default.temporaryDirectory.path)/x %u\n"),
        ("terminal.desktop", "Exec=/bin/echo %u\nTerminal=true\n"),
        ("hidden.desktop", "Exec=/bin/echo %u\nHidden=true\n"),
        ("tryexec.desktop", "TryExec=/nonexistent/browser\nExec=/bin/echo %u\n"),
        ("files.desktop", "Exec=/bin/echo %F\n"),
        ("linkd.desktop", "Exec=/usr/bin/linkd open %u\n"),
        ("ownlinkd.desktop", "Exec=/usr/local/bin/linkd open %u\n"),
    ])
    func anEntryThatCannotTakeALinkOrWouldHandItBackIsNotUsed(_ id: String, _ body: String) throws {
        let world = try World()
        defer { try? FileManager.default.removeItem(at: world.root) }
        try world.write(id, body)
        #expect(WebBrowser.find(id, environment: world.environment) == nil)
    }

    @Test func theUsersOwnEntryHidesTheSystemOne() throws {
        let world = try World()
        defer { try? FileManager.default.removeItem(at: world.root) }
        try world.write("firefox-esr.desktop", "Exec=\(world.recording) %u\n", system: true)
        try world.write("firefox-esr.desktop", "Exec=/bin/true %u\nHidden=true\n")
        #expect(WebBrowser.find("firefox-esr.desktop", environment: world.environment) == nil)
    }

    @Test func aDBusActivatableEntryIsOpenedOverTheBus() throws {
        let world = try World()
        defer { try? FileManager.default.removeItem(at: world.root) }
        try world.write("org.gnome.Epiphany.desktop", "DBusActivatable=true\nExec=/nonexistent/epiphany %u\n")
        #expect(
            WebBrowser.find("org.gnome.Epiphany.desktop", environment: world.environment)?.launch
                == .dbus(appID: "org.gnome.Epiphany")
        )
    }
}
