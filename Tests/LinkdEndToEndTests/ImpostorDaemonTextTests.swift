import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// What a daemon answers reaches a terminal only as text. A process of the same user listening at the socket (it
/// passes the client's checks of folder and peer) answers `linkd open` with OSC, CSI, BEL, C1 and bidi controls in
/// every field of each kind of answer: none of them reaches the output raw, in text or `--json`, nor the askpass
/// program's prompt.
@Suite(.ownThread) struct ImpostorDaemonTextTests {
    /// A terminal title (OSC … BEL), a colour (CSI), an 8-bit CSI (U+009B) clearing the screen, a right-to-left
    /// override and a C1 DCS (U+0090).
    static let evil = "\u{1B}]0;PWNED\u{07}\u{1B}[31mred\u{9B}2J\u{202E}txt.exe\u{90}"

    /// Each answer the impostor gives, one connection each: the lines it sends, a question waiting for the answer.
    static let conversations: [[String]] = [
        [#"{"ok": true, "state": "done", "route": E, "app": E, "message": E}"#],
        [#"{"ok": false, "error": {"kind": E, "reason": E, "part": E, "message": E}}"#],
        [#"{"ok": true, "state": "waiting", "app": E}"#],
        [
            #"{"ask": "password", "prompt": E}"#,
            #"{"ok": false, "error": {"kind": "refused", "reason": "weak_password", "part": E, "message": E}}"#,
        ],
        ["RAW"],
    ]

    /// The scalars of `text` a terminal acts on: C0 controls but LF, DEL, C1 controls, format controls.
    static func raw(_ text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
                || scalar.properties.generalCategory == .format
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    @Test(arguments: [false, true], 0..<conversations.count)
    func noControlOfADaemonsAnswerReachesTheOutputRaw(json: Bool, conversation: Int) throws {
        let world = try DaemonHarness()
        let folder = world.runtime.appendingPathComponent("linkd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o700)
        let evilJSON = String(decoding: try JSONEncoder().encode(Self.evil), as: UTF8.self)
        let lines = Self.conversations[conversation].map { line in
            // A raw line is the controls' bytes themselves, no JSON around them.
            line == "RAW" ? Array(Self.evil.utf8) : Array(line.replacingOccurrences(of: "E", with: evilJSON).utf8)
        }
        let impostor = try world.script(
            "impostor.py",
            """
            import socket
            lines = [\(lines.map { "bytes(\($0))" }.joined(separator: ", "))]
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.bind("\(world.socketPath)")
            server.listen(4)
            connection, _ = server.accept()
            reader = connection.makefile("rb")
            reader.readline()  # the request
            for line in lines:
                connection.sendall(line + b"\\n")
                if line.startswith(b'{"ask"'):
                    reader.readline()  # the answer to the question
            connection.close()

            """
        )
        let listener = try SpawnedProcess("/usr/bin/python3", [impostor.path], environment: ["PATH": "/usr/bin:/bin"])
        defer { listener.terminate() }
        #expect(world.waitUntil(.seconds(5)) { FileManager.default.fileExists(atPath: world.socketPath) })
        let askpassRecord = world.root.appendingPathComponent("asked.txt")
        let askpass = try world.script(
            "askpass.sh",
            "printf '%s\\n' \"$*\" >> \(askpassRecord.path)\necho Pass-word-1\n"
        )
        let output = try world.run(
            ["open"] + (json ? ["--json"] : []) + ["myapp://note/1"],
            extra: ["LINKD_ASKPASS": askpass.path]
        )
        #expect(output.status != 0 || conversation == 0 || conversation == 2, "\(output)")
        if conversation != 2 {  // a `waiting` answer to `open` is said in `--json` alone
            #expect(!output.stdout.isEmpty || !output.stderr.isEmpty, "the answer is reported")
        }
        #expect(Self.raw(output.stdout).isEmpty, "\(output)")
        #expect(Self.raw(output.stderr).isEmpty, "\(output)")
        #expect(!(output.stdout + output.stderr).contains("PWNED\u{07}"))
        if conversation == 3 {
            let asked = try String(contentsOf: askpassRecord, encoding: .utf8)
            #expect(asked.contains("PWNED"), "the prompt reached the askpass program, as text")
            #expect(Self.raw(asked).isEmpty, "\(asked)")
        }
    }
}
