import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// An `exec` program is checked as sshd's StrictModes checks a user's files when the configuration is read, and
/// again at the click: a program that appears later, or is replaced, in a folder others may write is never run.
@Suite(.ownThread) struct ProgramTrustTests {
    @Test func aProgramThatAppearsLaterInAFolderOthersMayWriteIsNotRun() throws {
        let world = try DaemonHarness()
        let folder = world.root.appendingPathComponent("shared-bin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let program = folder.appendingPathComponent("later.sh")
        let ran = world.root.appendingPathComponent("ran")
        let app = """
            {"app": "com.example.Later", "links": [
              {"match": "laterapp://open/{id}", "action": {"exec": ["\(program.path)"]}}]}
            """
        try Data(app.utf8).write(to: world.config.appendingPathComponent("linkd/apps.d/later.json"))
        let daemon = try world.startDaemon()
        defer { daemon.terminate() }
        // Written after the configuration was read, in a folder anyone may write to (not sticky).
        try ProgramFile.write("#!/bin/sh\ncat > /dev/null\ntouch \(ran.path)\n", to: program)
        chmod(folder.path, 0o777)
        let opened = try world.run(["open", "laterapp://open/1"])
        #expect(opened.status == 69, "\(opened)")
        #expect(
            opened.stderr.contains("the program '\(program.path)' is not trusted: '\(folder.path)' is writable by "),
            "\(opened)"
        )
        #expect(opened.stderr.hasSuffix("[program_not_trusted]\n"), "\(opened)")
        #expect(!FileManager.default.fileExists(atPath: ran.path))
        #expect(world.spooledURLs().isEmpty)

        chmod(folder.path, 0o755)
        #expect(try world.run(["open", "laterapp://open/2"]).status == 0)
        #expect(world.waitUntil(.seconds(10)) { FileManager.default.fileExists(atPath: ran.path) })
    }
}
