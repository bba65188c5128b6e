import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// `linkd open` sends links ahead of their answers and reports the answers in the order of the links; a link whose
/// connection ends before its answer goes once more on a new connection. The daemon here is a stand-in that holds
/// its answers until it has read several requests, which a client that waits for each answer never sends.
@Suite(.ownThread) struct SendAheadTests {
    /// A stand-in daemon (same user, private folder): for each connection in turn, reads `reads[i]` request lines,
    /// then answers the first `answers[i]` of them and closes; logs each link it reads.
    private func standIn(_ world: DaemonHarness, reads: [Int], answers: [Int]) throws -> (SpawnedProcess, URL) {
        let folder = world.runtime.appendingPathComponent("linkd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o700)
        let log = world.root.appendingPathComponent("stand-in.log")
        let script = try world.script(
            "stand-in.py",
            """
            import json, socket, sys
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.bind("\(world.socketPath)")
            server.listen(4)
            log = open("\(log.path)", "w", buffering=1)
            for reads, answers in zip(\(reads), \(answers)):
                connection, _ = server.accept()
                connection.settimeout(5)
                data, lines = b"", []
                try:
                    while len(lines) < reads:
                        chunk = connection.recv(65536)
                        if not chunk:
                            break
                        data += chunk
                        *complete, data = data.split(b"\\n")
                        lines += complete
                except OSError:
                    log.write("timed out with %d\\n" % len(lines))
                for line in lines:
                    log.write(json.loads(line)["url"] + "\\n")
                for line in lines[:answers]:
                    url = json.loads(line)["url"]
                    answer = {"ok": True, "route": url.rsplit("/", 1)[1], "app": "stand-in", "state": "delivered"}
                    connection.sendall((json.dumps(answer) + "\\n").encode())
                connection.close()

            """
        )
        let process = try SpawnedProcess("/usr/bin/python3", [script.path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(world.waitUntil(.seconds(5)) { FileManager.default.fileExists(atPath: world.socketPath) })
        return (process, log)
    }

    /// No askpass program on `PATH` and no terminal: nothing can be asked of the client.
    private static let noAskpass = ["PATH": "/nonexistent"]

    @Test func linksGoAheadOfTheirAnswersWhichAreReportedInOrder() throws {
        let world = try DaemonHarness()
        let (standIn, log) = try standIn(world, reads: [3], answers: [3])
        defer { standIn.terminate() }
        let links = (1...3).map { "myapp://note/\($0)" }
        let output = try world.run(
            ["open", "-"],
            stdin: Data(links.map { $0 + "\n" }.joined().utf8),
            extra: Self.noAskpass
        )
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "delivered: 1 → stand-in\ndelivered: 2 → stand-in\ndelivered: 3 → stand-in\n")
        #expect(try String(contentsOf: log, encoding: .utf8) == links.map { $0 + "\n" }.joined())
    }

    @Test func theLinksALostConnectionLeftUnansweredGoOnceMoreInOrder() throws {
        let world = try DaemonHarness()
        // The first connection answers one of three links and closes; the second answers the other two.
        let (standIn, log) = try standIn(world, reads: [3, 2], answers: [1, 2])
        defer { standIn.terminate() }
        let links = (1...3).map { "myapp://note/\($0)" }
        let output = try world.run(["open"] + links, extra: Self.noAskpass)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "delivered: 1 → stand-in\ndelivered: 2 → stand-in\ndelivered: 3 → stand-in\n")
        let read = try String(contentsOf: log, encoding: .utf8)
        #expect(read == ["1", "2", "3", "2", "3"].map { "myapp://note/\($0)\n" }.joined())
    }
}
