import Foundation
import LinkdTestSupport
import Testing

@testable import LinkdCLI

/// A default the person chose (with `xdg-mime default`) is named when `linkd register` takes its place, and
/// `linkd unregister` puts it back byte for byte; real GIO agrees at each step.
@Suite(.ownThread, .serialized) struct ReplacedDefaultTests {
    /// Installs the other app's desktop file, as its package would.
    private func installNotes(_ world: DaemonHarness) throws {
        let applications = world.root.appendingPathComponent("data/applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try Data(
            "[Desktop Entry]\nType=Application\nName=Notes\nExec=/bin/true %u\nMimeType=x-scheme-handler/myapp;\n".utf8
        ).write(to: applications.appendingPathComponent("com.example.Notes.desktop"))
    }

    @Test func registerOverAnExistingDefaultThenUnregisterRestoresItByteForByte() throws {
        let world = try DaemonHarness()
        let environment = world.desktopEnvironment
        try installNotes(world)
        let xdgMime = ["default", "com.example.Notes.desktop", "x-scheme-handler/myapp"]
        #expect(try world.runProgram("/usr/bin/xdg-mime", xdgMime, environment).status == 0)
        let list = world.config.appendingPathComponent("mimeapps.list")
        let chosen = try Data(contentsOf: list)
        #expect(try world.gioDefault(of: "myapp", environment) == "com.example.Notes.desktop")

        #expect(
            try LinkdProcess.run(["register", "myapp"], environment: environment)
                == .init(
                    stdout: "registered: myapp (was: com.example.Notes.desktop)\n",
                    stderr: RegisterCommand.testBuildWarning,
                    status: 0
                )
        )
        #expect(try world.gioDefault(of: "myapp", environment) == "linkd.desktop")
        let memory = world.state.appendingPathComponent("linkd/replaced-defaults.json").path
        #expect(
            world.file("state/linkd/replaced-defaults.json")
                == #"{"version": 1, "replaced": {"myapp": "x-scheme-handler/myapp=com.example.Notes.desktop"}}"# + "\n"
        )
        #expect(try FileManager.default.attributesOfItem(atPath: memory)[.posixPermissions] as? Int == 0o600)

        #expect(
            try LinkdProcess.run(["unregister", "myapp"], environment: environment)
                == .init(stdout: "unregistered: myapp (restored: com.example.Notes.desktop)\n", stderr: "", status: 0)
        )
        #expect(try Data(contentsOf: list) == chosen)
        #expect(try world.gioDefault(of: "myapp", environment) == "com.example.Notes.desktop")
        #expect(world.file("state/linkd/replaced-defaults.json") == nil)
        #expect(world.file("data/applications/linkd.desktop") == nil)
    }

    @Test func unregisterWithNoSchemeUndoesEveryRegistration() throws {
        let world = try DaemonHarness()
        let environment = world.desktopEnvironment
        #expect(try LinkdProcess.run(["register", "myapp", "com.example.notes"], environment: environment).status == 0)
        #expect(try world.gioDefault(of: "com.example.notes", environment) == "linkd.desktop")
        #expect(
            try LinkdProcess.run(["unregister"], environment: environment)
                == .init(stdout: "unregistered: com.example.notes, myapp\n", stderr: "", status: 0)
        )
        #expect(world.file("data/applications/linkd.desktop") == nil)
        #expect(world.file("config/mimeapps.list") == nil)  // linkd made it; it goes with its last entry
        #expect(try world.gioDefault(of: "myapp", environment) == nil)
        #expect(try world.gioDefault(of: "com.example.notes", environment) == nil)
        #expect(
            try LinkdProcess.run(["unregister"], environment: environment)
                == .init(stdout: "nothing to unregister\n", stderr: "", status: 0)
        )
    }

    @Test func aSymlinkedMimeappsListStaysALinkWithItsMode() throws {
        let world = try DaemonHarness()
        let environment = world.desktopEnvironment
        let dotfiles = world.root.appendingPathComponent("dotfiles/mimeapps.list")
        try FileManager.default.createDirectory(
            at: dotfiles.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        let original = "[Default Applications]\ntext/html=firefox.desktop\n"
        try Data(original.utf8).write(to: dotfiles)
        try FileManager.default.setAttributes([.posixPermissions: 0o660], ofItemAtPath: dotfiles.path)
        let link = world.config.appendingPathComponent("mimeapps.list").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../dotfiles/mimeapps.list")

        #expect(try LinkdProcess.run(["register", "myapp"], environment: environment).stdout == "registered: myapp\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "../dotfiles/mimeapps.list")
        #expect(try FileManager.default.attributesOfItem(atPath: dotfiles.path)[.posixPermissions] as? Int == 0o660)
        #expect(world.file("dotfiles/mimeapps.list") == original + "x-scheme-handler/myapp=linkd.desktop\n")
        #expect(try world.gioDefault(of: "myapp", environment) == "linkd.desktop")

        #expect(try LinkdProcess.run(["unregister"], environment: environment).stdout == "unregistered: myapp\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "../dotfiles/mimeapps.list")
        #expect(try FileManager.default.attributesOfItem(atPath: dotfiles.path)[.posixPermissions] as? Int == 0o660)
        #expect(world.file("dotfiles/mimeapps.list") == original)
    }
}
