import Foundation
import LinkdSystem
import LinkdTestSupport
import LinkdWire
import Testing

@testable import LinkdCLI

/// `linkd register --system` and `unregister --system`, run in this process with their root moved to a temporary
/// folder (the binary always uses `/`); real GIO, pointed at that root, agrees with them.
@Suite(.ownThread) struct SystemRegistrationTests {
    /// What a command printed.
    final class Captured: Sendable {
        let output = Lock("")
        var console: Console {
            Console(
                write: { text in self.output.withLock { $0 += text } },
                writeError: { text in self.output.withLock { $0 += "stderr: " + text } },
                readInput: { [] }
            )
        }
    }

    /// The path the entry names: a program GIO finds (it skips an entry whose program is missing), outside a build
    /// folder (no warning).
    static let installedLinkd = "/bin/true"

    /// A machine's root: system apps.d folders, and another app that is every user's default for `sysapp`.
    private func makeRoot() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("linkd-root-\(UUID().uuidString)")
        let files = [
            "etc/linkd/apps.d/notes.json":
                #"{"app": "com.example.Notes", "links": [{"match": "sysapp://note/{id}", "action": "forward"}]}"#,
            "usr/share/linkd/apps.d/mail.json":
                #"{"app": "org.example.Mail", "links": [{"match": "mailapp://open/{id}", "action": "forward"}]}"#,
            "usr/share/applications/com.example.Notes.desktop":
                "[Desktop Entry]\nType=Application\nName=Notes\nExec=/bin/true %u\nMimeType=x-scheme-handler/sysapp;\n",
            "usr/share/applications/mimeapps.list":
                "[Default Applications]\nx-scheme-handler/sysapp=com.example.Notes.desktop\n",
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(text.utf8).write(to: url)
        }
        for folder in ["home/config", "home/data", "etc/xdg"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(folder),
                withIntermediateDirectories: true
            )
        }
        return root
    }

    /// What GIO opens `scheme` with for a user of `root` who chose nothing.
    private func gioDefault(_ scheme: String, root: URL) throws -> String? {
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": root.path + "/home", "XDG_CONFIG_HOME": root.path + "/home/config",
            "XDG_DATA_HOME": root.path + "/home/data", "XDG_DATA_DIRS": root.path + "/usr/share",
            "XDG_CONFIG_DIRS": root.path + "/etc/xdg",
        ]
        return try DesktopTool.gioDefault(of: scheme, environment, scratch: root)
    }

    @Test func registersEveryUsersSchemesAndPutsTheirDefaultBack() async throws {
        let root = try makeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let list = root.appendingPathComponent("usr/share/applications/mimeapps.list")
        let original = try Data(contentsOf: list)
        #expect(try gioDefault("sysapp", root: root) == "com.example.Notes.desktop")

        let registered = Captured()
        var register = try RegisterCommand(parsing: [Array("--system".utf8)])
        register.systemRoot = root.path
        register.executable = Self.installedLinkd
        #expect(try await register.run(registered.console) == .success)
        #expect(registered.output.withLock { $0 } == "registered: mailapp, sysapp (was: com.example.Notes.desktop)\n")
        let entry = try String(
            contentsOf: root.appendingPathComponent("usr/share/applications/linkd.desktop"),
            encoding: .utf8
        )
        #expect(entry.contains("\nMimeType=x-scheme-handler/mailapp;x-scheme-handler/sysapp;\n"))
        #expect(FileManager.default.fileExists(atPath: root.path + "/var/lib/linkd/replaced-defaults.json"))
        #expect(try gioDefault("sysapp", root: root) == "linkd.desktop")
        #expect(try gioDefault("mailapp", root: root) == "linkd.desktop")

        let unregistered = Captured()
        var unregister = try UnregisterCommand(parsing: [Array("--system".utf8)])
        unregister.systemRoot = root.path
        #expect(try await unregister.run(unregistered.console) == .success)
        #expect(
            unregistered.output.withLock { $0 }
                == "unregistered: mailapp, sysapp (restored: com.example.Notes.desktop)\n"
        )
        #expect(try Data(contentsOf: list) == original)
        #expect(!FileManager.default.fileExists(atPath: root.path + "/usr/share/applications/linkd.desktop"))
        #expect(!FileManager.default.fileExists(atPath: root.path + "/var/lib/linkd/replaced-defaults.json"))
        #expect(try gioDefault("sysapp", root: root) == "com.example.Notes.desktop")
        #expect(try gioDefault("mailapp", root: root) == nil)
    }

    /// What the package's trigger does when an app's package adds or removes its apps.d file.
    @Test func registerSystemFollowsTheAppsThatComeAndGo() async throws {
        let root = try makeRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let list = root.appendingPathComponent("usr/share/applications/mimeapps.list")
        let original = try Data(contentsOf: list)
        func registerSystem() async throws -> String {
            let captured = Captured()
            var register = try RegisterCommand(parsing: [Array("--system".utf8)])
            register.systemRoot = root.path
            register.executable = Self.installedLinkd
            register.executable = Self.installedLinkd
            #expect(try await register.run(captured.console) == .success)
            return captured.output.withLock { $0 }
        }
        #expect(try await registerSystem() == "registered: mailapp, sysapp (was: com.example.Notes.desktop)\n")

        try FileManager.default.removeItem(at: root.appendingPathComponent("usr/share/linkd/apps.d/mail.json"))
        #expect(try await registerSystem() == "unregistered: mailapp\nalready registered: sysapp\n")
        let entry = try String(
            contentsOf: root.appendingPathComponent("usr/share/applications/linkd.desktop"),
            encoding: .utf8
        )
        #expect(entry.contains("\nMimeType=x-scheme-handler/sysapp;\n"))
        #expect(try gioDefault("mailapp", root: root) == nil)
        #expect(try gioDefault("sysapp", root: root) == "linkd.desktop")

        try FileManager.default.removeItem(at: root.appendingPathComponent("etc/linkd/apps.d/notes.json"))
        #expect(try await registerSystem() == "unregistered: sysapp (restored: com.example.Notes.desktop)\n")
        #expect(try Data(contentsOf: list) == original)
        #expect(!FileManager.default.fileExists(atPath: root.path + "/usr/share/applications/linkd.desktop"))
        #expect(try gioDefault("sysapp", root: root) == "com.example.Notes.desktop")
        #expect(
            try await registerSystem() == "no app in /etc/linkd/apps.d or /usr/share/linkd/apps.d claims a scheme\n"
        )
    }

    @Test func systemIsAFlagOfBothCommandsAndTheRootIsSlash() throws {
        let register = try RegisterCommand(parsing: [Array("--system".utf8), Array("MyApp".utf8)])
        #expect(register.isSystem && register.schemes == ["MyApp"] && register.systemRoot == "/")
        let unregister = try UnregisterCommand(parsing: [])
        #expect(!unregister.isSystem && unregister.schemes.isEmpty && unregister.systemRoot == "/")
    }
}
