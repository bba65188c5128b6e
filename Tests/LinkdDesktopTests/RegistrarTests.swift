import Foundation
import LinkdConfig
import LinkdDesktop
import Testing

/// Registration in private XDG folders: a replaced default is remembered and put back byte for byte, `unregister`
/// with no scheme undoes everything, a symbolic link stays a link, and `--system` lives under its root.
@Suite struct RegistrarTests {
    /// A test's folders, removed when it goes.
    final class Folders: Sendable {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-reg-\(UUID().uuidString)")
        var environment: [String: String] {
            [
                "HOME": root.path, "XDG_CONFIG_HOME": root.path + "/config", "XDG_DATA_HOME": root.path + "/data",
                "XDG_STATE_HOME": root.path + "/state",
            ]
        }
        var registrar: Registrar { Registrar(environment: environment, actions: .linkd) }

        func write(_ text: String, _ path: String, mode: Int = 0o644) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(text.utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        }

        func text(_ path: String) -> String? {
            try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        }

        func mode(_ path: String) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)[.posixPermissions]
                as? Int
        }

        deinit { try? FileManager.default.removeItem(at: root) }
    }

    static let notes = "\n[Default Applications]\nx-scheme-handler/myapp=com.example.Notes.desktop\n# mine\n"
    static let memory = #"{"version": 1, "replaced": {"myapp": "x-scheme-handler/myapp=com.example.Notes.desktop"}}"#

    @Test func aReplacedDefaultIsRememberedAndPutBackByteForByte() throws {
        let folders = Folders()
        try folders.write(Self.notes, "config/mimeapps.list")
        let registered = try folders.registrar.register(["MyApp"], executable: "/usr/bin/linkd")
        #expect(registered.summary == "registered: myapp (was: com.example.Notes.desktop)")
        #expect(
            folders.text("config/mimeapps.list")
                == "\n[Default Applications]\nx-scheme-handler/myapp=linkd.desktop\n# mine\n"
        )
        #expect(folders.text("state/linkd/replaced-defaults.json") == Self.memory + "\n")
        #expect(try folders.mode("state/linkd/replaced-defaults.json") == 0o600)
        #expect(try folders.mode("state/linkd") == 0o700)
        let again = try folders.registrar.register(["myapp"], executable: "/usr/bin/linkd")
        #expect(again.summary == "already registered: myapp")
        #expect(folders.text("state/linkd/replaced-defaults.json") == Self.memory + "\n")

        let unregistered = try folders.registrar.unregister(["myapp"])
        #expect(unregistered.summary == "unregistered: myapp (restored: com.example.Notes.desktop)")
        #expect(folders.text("config/mimeapps.list") == Self.notes)
        #expect(folders.text("state/linkd/replaced-defaults.json") == nil)
        #expect(folders.text("data/applications/linkd.desktop") == nil)
    }

    @Test func aDefaultChosenSinceRegisteringStays() throws {
        let folders = Folders()
        try folders.write(Self.notes, "config/mimeapps.list")
        _ = try folders.registrar.register(["myapp"], executable: "linkd")
        let chosen = Self.notes.replacing("com.example.Notes.desktop", with: "org.example.Other.desktop")
        try folders.write(chosen, "config/mimeapps.list")
        #expect(try folders.registrar.unregister(["myapp"]).summary == "unregistered: myapp")
        #expect(folders.text("config/mimeapps.list") == chosen)
        #expect(folders.text("state/linkd/replaced-defaults.json") == nil)
    }

    @Test func unregisterWithNoSchemeUndoesEveryRegistration() throws {
        let folders = Folders()
        let original = Self.notes + "\n[Added Associations]\nx-scheme-handler/gio=linkd.desktop;other.desktop;\n"
        try folders.write(original, "config/mimeapps.list")
        _ = try folders.registrar.register(["zeta", "myapp"], executable: "linkd")
        let outcome = try folders.registrar.unregister()
        #expect(outcome.summary == "unregistered: gio, myapp (restored: com.example.Notes.desktop), zeta")
        #expect(folders.text("config/mimeapps.list") == original.replacing("gio=linkd.desktop;", with: "gio="))
        #expect(folders.text("data/applications/linkd.desktop") == nil)
        #expect(try folders.registrar.unregister().summary == "nothing to unregister")
    }

    @Test func aListLinkdMadeGoesWithItsLastEntry() throws {
        let folders = Folders()
        _ = try folders.registrar.register(["myapp"], executable: "linkd")
        #expect(
            folders.text("config/mimeapps.list") == "[Default Applications]\nx-scheme-handler/myapp=linkd.desktop\n"
        )
        #expect(try folders.mode("config/mimeapps.list") == 0o644)
        _ = try folders.registrar.unregister(["myapp"])
        #expect(!FileManager.default.fileExists(atPath: folders.root.path + "/config/mimeapps.list"))
    }

    @Test func aSymlinkedListIsWrittenThroughKeepingItsMode() throws {
        let folders = Folders()
        try folders.write(Self.notes, "dotfiles/mimeapps.list", mode: 0o660)  // wider than the umask lets through
        try FileManager.default.createDirectory(
            at: folders.root.appendingPathComponent("config"),
            withIntermediateDirectories: true
        )
        let link = folders.root.path + "/config/mimeapps.list"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../dotfiles/mimeapps.list")
        for step in ["register", "unregister"] {
            _ =
                step == "register"
                ? try folders.registrar.register(["myapp"], executable: "linkd")
                : try folders.registrar.unregister(["myapp"])
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "../dotfiles/mimeapps.list")
            #expect(try folders.mode("dotfiles/mimeapps.list") == 0o660)
        }
        #expect(folders.text("dotfiles/mimeapps.list") == Self.notes)
    }

    @Test func aLinkToNothingYetGetsItsTarget() throws {
        let folders = Folders()
        try FileManager.default.createDirectory(
            at: folders.root.appendingPathComponent("config"),
            withIntermediateDirectories: true
        )
        let link = folders.root.path + "/config/mimeapps.list"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folders.root.path + "/dots/list")
        _ = try folders.registrar.register(["myapp"], executable: "linkd")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == folders.root.path + "/dots/list")
        #expect(folders.text("dots/list") == "[Default Applications]\nx-scheme-handler/myapp=linkd.desktop\n")
    }

    @Test func aGarbledMemoryStopsRegistrationInsteadOfLosingTheDefault() throws {
        let folders = Folders()
        try folders.write(Self.notes, "config/mimeapps.list")
        try folders.write("{\"version\": 2}", "state/linkd/replaced-defaults.json")
        let path = folders.root.path + "/state/linkd/replaced-defaults.json"
        let message = "cannot read '\(path)': it is not linkd's list of replaced defaults"
        #expect {
            try folders.registrar.register(["myapp"], executable: "linkd")
        } throws: {
            ($0 as? Registrar.Problem)?.description == message
        }
        #expect(folders.text("config/mimeapps.list") == Self.notes)
    }
    /// A CR LF mimeapps.list (written on another system): linkd's line goes into its section, and unregister puts
    /// the file back byte for byte (found by the desktop fuzz target's review: the header was not read as one).
    @Test func aCRLFListIsEditedInPlaceAndPutBackByteForByte() throws {
        let folders = Folders()
        let original = "[Default Applications]\r\nx-scheme-handler/myapp=com.example.Notes.desktop\r\n"
        try folders.write(original, "config/mimeapps.list")
        let registered = try folders.registrar.register(["myapp"], executable: "/usr/bin/linkd")
        #expect(registered.summary == "registered: myapp (was: com.example.Notes.desktop)")
        #expect(
            folders.text("config/mimeapps.list") == "[Default Applications]\r\nx-scheme-handler/myapp=linkd.desktop\r\n"
        )
        #expect(try folders.registrar.registeredSchemes() == ["myapp"])
        let unregistered = try folders.registrar.unregister()
        #expect(unregistered.summary == "unregistered: myapp (restored: com.example.Notes.desktop)")
        #expect(folders.text("config/mimeapps.list") == original)
    }

    /// A linkd whose path has a line break cannot be named in an `Exec=` line (the entry would end its line inside
    /// the path): registering refuses, naming why, and writes nothing (found by the desktop fuzz target).
    @Test func aPathWithALineBreakIsRefusedAndNothingWritten() throws {
        let folders = Folders()
        #expect(throws: Registrar.Problem.self) {
            try folders.registrar.register(["myapp"], executable: "/opt/a\r\nb/linkd")
        }
        #expect(folders.text("data/applications/linkd.desktop") == nil)
        #expect(folders.text("config/mimeapps.list") == nil)
    }
}
