import Foundation
import LinkdConfig
import LinkdDesktop
import Testing

/// Web links' registration in private XDG folders: `linkd-web.desktop` takes http and https as `gio mime` writes a
/// default, the browser and the list as it was are recorded, `unregisterWeb` gives the list back byte for byte (or,
/// when something changed it since, only linkd's part), and doing either twice changes nothing more.
@Suite struct WebRegistrarTests {
    typealias Folders = RegistrarTests.Folders

    static let list = """
        # my defaults
        [Default Applications]
        x-scheme-handler/https=firefox-esr.desktop
        text/html=firefox-esr.desktop

        [Added Associations]
        x-scheme-handler/http=firefox-esr.desktop
        application/pdf=org.gnome.Evince.desktop;

        """

    @Test func registeringTakesBothSchemesAndUnregisteringGivesTheListBackByteForByte() throws {
        let folders = Folders()
        try folders.write(Self.list, "config/mimeapps.list")
        let registered = try folders.registrar.registerWeb(executable: "/usr/bin/linkd", browser: "firefox-esr.desktop")
        #expect(registered.summary == "registered: web links (others open in firefox-esr.desktop)")
        let list = try #require(folders.text("config/mimeapps.list"))
        #expect(list.contains("[Default Applications]\nx-scheme-handler/https=linkd-web.desktop\n"))
        #expect(list.contains("x-scheme-handler/http=linkd-web.desktop\n"))
        #expect(list.contains("x-scheme-handler/http=linkd-web.desktop;firefox-esr.desktop;\n"))
        #expect(list.contains("x-scheme-handler/https=linkd-web.desktop;\n"))
        #expect(list.contains("text/html=firefox-esr.desktop\n") && list.contains("# my defaults\n"))
        let entry = try #require(folders.text("data/applications/linkd-web.desktop"))
        #expect(entry.contains("\nExec=/usr/bin/linkd open --web %u\n"))
        #expect(entry.contains("\nMimeType=x-scheme-handler/http;x-scheme-handler/https;\n"))
        #expect(entry.contains("\nX-GIO-NoFuse=true\n") && entry.contains("\nNoDisplay=true\n"))
        #expect(try folders.mode("state/linkd/web-links.json") == 0o600)
        #expect(try folders.registrar.readWebRegistration()?.browser == "firefox-esr.desktop")

        let again = try folders.registrar.registerWeb(executable: "/usr/bin/linkd", browser: "firefox-esr.desktop")
        #expect(again.summary == "already registered: web links (others open in firefox-esr.desktop)")
        #expect(folders.text("config/mimeapps.list") == list)

        let unregistered = try folders.registrar.unregisterWeb()
        #expect(unregistered.summary == "unregistered: web links (restored: firefox-esr.desktop)")
        #expect(folders.text("config/mimeapps.list") == Self.list)
        #expect(folders.text("data/applications/linkd-web.desktop") == nil)
        #expect(folders.text("state/linkd/web-links.json") == nil)
        #expect(try folders.registrar.unregisterWeb().summary == "not registered: web links")
        #expect(folders.text("config/mimeapps.list") == Self.list)
    }

    @Test func withNoListBeforeUnregisteringRemovesTheOneLinkdWrote() throws {
        let folders = Folders()
        _ = try folders.registrar.registerWeb(executable: "/usr/bin/linkd", browser: "chromium.desktop")
        #expect(folders.text("config/mimeapps.list") != nil)
        _ = try folders.registrar.unregisterWeb()
        #expect(folders.text("config/mimeapps.list") == nil)
    }

    @Test func aChangeMadeSinceStaysAndOnlyLinkdsPartGoes() throws {
        let folders = Folders()
        try folders.write(Self.list, "config/mimeapps.list")
        _ = try folders.registrar.registerWeb(executable: "/usr/bin/linkd", browser: "firefox-esr.desktop")
        // A browser takes https back (as `gio mime` writes it), and another type gets a default.
        var list = try #require(folders.text("config/mimeapps.list"))
        list = list.replacing("x-scheme-handler/https=linkd-web.desktop\n", with: "x-scheme-handler/https=b.desktop\n")
        list = list.replacing(
            "text/html=firefox-esr.desktop\n",
            with: "text/html=firefox-esr.desktop\nimage/png=eog.desktop\n"
        )
        try folders.write(list, "config/mimeapps.list")
        _ = try folders.registrar.unregisterWeb()
        let expected = Self.list
            .replacing("x-scheme-handler/https=firefox-esr.desktop\n", with: "x-scheme-handler/https=b.desktop\n")
            .replacing(
                "text/html=firefox-esr.desktop\n",
                with: "text/html=firefox-esr.desktop\nimage/png=eog.desktop\n"
            )
        #expect(folders.text("config/mimeapps.list") == expected)
    }

    @Test func theSchemesEntryNeverListsWebSchemes() throws {
        let folders = Folders()
        _ = try folders.registrar.register(["myapp"], executable: "/usr/bin/linkd")
        _ = try folders.registrar.registerWeb(executable: "/usr/bin/linkd", browser: "chromium.desktop")
        let entry = try #require(folders.text("data/applications/linkd.desktop"))
        #expect(!entry.contains("x-scheme-handler/http"))
        _ = try folders.registrar.unregisterWeb()
        #expect(folders.text("data/applications/linkd.desktop") == entry)
    }
}

/// Web links are opt-in: no file the package installs claims http or https (with no default set anywhere, an
/// installed entry that lists https becomes the browser as far as GIO is concerned).
@Suite struct InstalledFilesClaimNoWebSchemeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func noInstalledFileListsHTTPOrHTTPS() throws {
        var checked = 0
        for folder in ["share", "packaging"] {
            let base = Self.root.appendingPathComponent(folder)
            let files = try #require(FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil))
            for case let file as URL in files {
                guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                checked += 1
                for line in text.split(separator: "\n") where line.hasPrefix("MimeType=") {
                    let types = line.dropFirst("MimeType=".count).split(separator: ";")
                    #expect(
                        !types.contains("x-scheme-handler/http") && !types.contains("x-scheme-handler/https"),
                        "\(file.path) lists a web scheme: \(line)"
                    )
                }
                #expect(!text.contains("x-scheme-handler/https="), "\(file.path) sets a default for https")
            }
        }
        #expect(checked > 10)
        let entry = try String(
            contentsOf: Self.root.appendingPathComponent("share/applications/linkd.desktop"),
            encoding: .utf8
        )
        #expect(entry.contains("MimeType="))
    }
}
