import Foundation
import LinkdTestSupport
import Testing

@testable import LinkdCLI

extension RegisterCommand {
    /// The warning the tests' linkd prints when it registers: it runs from the package's build folder.
    static var testBuildWarning: String {
        buildFolderWarning(LinkdProcess.executable.resolvingSymlinksInPath().path) ?? ""
    }
}

/// `linkd register` writes the path of the linkd it runs as into the desktop entry; from a build folder that path
/// stops working with the next build, so it says so.
@Suite(.ownThread) struct BuildFolderWarningTests {
    @Test func aLinkdInABuildFolderWarnsNamingItsPath() throws {
        let world = try DaemonHarness()
        let output = try LinkdProcess.run(["register", "myapp"], environment: world.desktopEnvironment)
        #expect(output.status == 0)
        let path = LinkdProcess.executable.resolvingSymlinksInPath().path
        #expect(output.stderr.hasPrefix("warning: linkd runs from a build folder (\(path)); "), "\(output)")
        #expect(output.stderr.contains("Install linkd"))
        let entry = try #require(world.file("data/applications/linkd.desktop"))
        #expect(entry.contains("\nExec=\(path) open %u\n"))
    }

    @Test func anInstalledLinkdDoesNotWarn() throws {
        let world = try DaemonHarness()
        let installed = world.root.appendingPathComponent("prefix/bin/linkd")
        try FileManager.default.createDirectory(
            at: installed.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try FileManager.default.copyItem(at: LinkdProcess.executable.resolvingSymlinksInPath(), to: installed)
        let output = try LinkdProcess.run(
            ["register", "myapp"],
            environment: world.desktopEnvironment,
            executable: installed
        )
        #expect(output == .init(stdout: "registered: myapp\n", stderr: "", status: 0))
        let entry = try #require(world.file("data/applications/linkd.desktop"))
        #expect(entry.contains("\nExec=\(installed.path) open %u\n"))
    }

    @Test func theWarningIsForBuildFoldersOnly() {
        #expect(RegisterCommand.buildFolderWarning("/usr/bin/linkd") == nil)
        #expect(RegisterCommand.buildFolderWarning("/home/ada/.local/bin/linkd") == nil)
        #expect(RegisterCommand.buildFolderWarning("/home/ada/linkd/.build/release/linkd") != nil)
    }
}
