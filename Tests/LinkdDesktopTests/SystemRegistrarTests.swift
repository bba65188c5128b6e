import Foundation
import LinkdConfig
import LinkdDesktop
import Testing

/// `Registrar.system(root:)`: every user's files and apps.d folders, all under a temporary root in tests.
@Suite struct SystemRegistrarTests {
    @Test func registersTheSchemesOfTheSystemAppsUnderTheRoot() throws {
        let folders = RegistrarTests.Folders()
        let root = folders.root.path
        try folders.write(
            #"{"app": "com.example.A", "links": [{"match": "appa://x/{id}", "action": "forward"}]}"#,
            "etc/linkd/apps.d/a.json"
        )
        try folders.write(
            #"{"app": "com.example.B", "links": [{"match": "appb://y", "action": "forward"}, "#
                + #"{"match": "https://b.example.com/y", "action": "forward"}]}"#,
            "usr/share/linkd/apps.d/b.json"
        )
        try folders.write(
            "[Default Applications]\nx-scheme-handler/appb=b.desktop\n",
            "usr/share/applications/mimeapps.list"
        )
        let registrar = Registrar.system(root: root + "/", actions: .linkd)
        #expect(registrar.desktopFile == root + "/usr/share/applications/linkd.desktop")
        #expect(registrar.mimeApps == root + "/usr/share/applications/mimeapps.list")
        #expect(registrar.replacedDefaults == root + "/var/lib/linkd/replaced-defaults.json")
        #expect(registrar.claimedSchemes() == ["appa", "appb"])

        let outcome = try registrar.register(registrar.claimedSchemes(), executable: "/usr/bin/linkd")
        #expect(outcome.summary == "registered: appa, appb (was: b.desktop)")
        #expect(try folders.mode("usr/share/applications/linkd.desktop") == 0o644)
        #expect(try folders.mode("var/lib/linkd/replaced-defaults.json") == 0o600)
        #expect(FileManager.default.fileExists(atPath: root + "/usr/share/applications/mimeinfo.cache"))
        #expect(try registrar.unregister().summary == "unregistered: appa, appb (restored: b.desktop)")
        #expect(
            folders.text("usr/share/applications/mimeapps.list")
                == "[Default Applications]\nx-scheme-handler/appb=b.desktop\n"
        )
        #expect(folders.text("usr/share/applications/linkd.desktop") == nil)
    }
}
