import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// Whatever a process listening at the socket answers, `linkd open` puts no control byte of it on the terminal: the
/// message is sanitised, and a reason or part that is not one plain word is not printed as sent.
@Suite(.ownThread) struct HostileAnswerTests {
    @Test func escapesInAnAnswersReasonMessageAndPartNeverReachTheTerminal() throws {
        let world = try DaemonHarness()
        let folder = world.runtime.appendingPathComponent("linkd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o700)
        // A process of this user at the daemon's socket, answering every request with a failure full of escapes.
        let answer =
            #"{"ok": false, "error": {"kind": "invalid", "reason": "\u001b[31mred\u001b]0;PWNED\u0007", "#
            + #""part": "\u001b[2J", "message": "bad \u001b]0;TITLE\u0007 news"}}"#
        let script = try world.script(
            "hostile.py",
            """
            import socket
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.bind("\(world.socketPath)")
            server.listen(4)
            connection, _ = server.accept()
            connection.makefile("rb").readline()
            connection.sendall(b'\(answer)\\n')
            connection.close()

            """
        )
        let hostile = try SpawnedProcess("/usr/bin/python3", [script.path], environment: ["PATH": "/usr/bin:/bin"])
        defer { hostile.terminate() }
        #expect(world.waitUntil(.seconds(5)) { FileManager.default.fileExists(atPath: world.socketPath) })
        let output = try world.run(["open", "myapp://note/1"])
        #expect(output.status == 65, "\(output)")
        #expect(
            !output.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" },
            "\(output.stderr.debugDescription)"
        )
        #expect(output.stderr.hasPrefix("Error: link 1: bad "))
        #expect(output.stderr.hasSuffix(" news [bad_response]\n"), "\(output.stderr.debugDescription)")
    }
}
