import Foundation
import LinkdTestSupport
import LinkdWire
import Testing

@testable import LinkdDaemon

/// The `exec` action with its service and supervisor, no socket: the program gets the route as JSON on standard input
/// with the real values and nothing secret in its argv or environment, and the link leaves the spool once it is read;
/// two opens of one link run its program once; a program that is gone takes no link.
@Suite(.ownThread) struct ExecActionTests {
    @Test func theProgramGetsTheRouteOnStandardInputAndNoSecretElsewhere() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("exec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let record = root.appendingPathComponent("record").path
        let apps = #"""
            {"app": "com.example.A", "links": [{"match": "myapp://auth", "format": "supabase",
              "action": {"exec": ["/bin/sh", "-c", "{ echo \"$0 $*\"; env; cat; } > '\#(record).tmp'; mv '\#(record).tmp' '\#(record)'", "argv0", "--flag"]}}]}
            """#
        let world = try LinkServiceTests.World(apps: apps)
        let code = "c0de-\(UUID().uuidString)"
        try await world.supervising {
            let response = await world.service.open("myapp://auth?code=\(code)")
            #expect(response == .accepted(route: "supabase.pkce", app: "com.example.A", state: .delivered))
            try await world.service.activity.waitUntilQuiet()
        }
        let recorded = try await lines(of: URL(fileURLWithPath: record), count: 2)
        let argv = try #require(recorded.first)
        #expect(argv == "argv0 --flag")
        let payload = try #require(recorded.last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any])
        #expect((object["fields"] as? [String: Any])?["code"] as? String == code)
        #expect(object["route"] as? String == "supabase.pkce" && object["app"] as? String == "com.example.A")
        #expect(recorded.dropLast().allSatisfy { !$0.contains(code) }, "the code is in the payload alone")
        #expect(world.spooled.isEmpty, "read: the link left the spool")
    }

    /// A program removed after the configuration was read (an app uninstalled): the link is refused before it is
    /// recorded.
    @Test func aProgramThatIsGoneTakesNoLink() async throws {
        let program = FileManager.default.temporaryDirectory.appendingPathComponent("gone-\(UUID().uuidString)")
        try ProgramFile.write("#!/bin/sh\ncat >/dev/null\n", to: program)
        let apps = #"""
            {"app": "com.example.A", "links": [{"match": "myapp://note/{id}", "action": {"exec": ["\#(program.path)"]}}]}
            """#
        let world = try LinkServiceTests.World(apps: apps)
        try FileManager.default.removeItem(at: program)
        #expect(await !world.service.canTakeNow("myapp://note/1"))
        let response = await world.service.open("myapp://note/1")
        #expect(response.failure?.reason == .programNotFound)
        #expect(world.spooled.isEmpty)
    }

    @Test func twoOpensOfOneLinkRunItsProgramOnce() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("runs-\(UUID().uuidString)")
        let apps = #"""
            {"app": "com.example.A", "links": [{"match": "myapp://note/{id}",
              "action": {"exec": ["/bin/sh", "-c", "cat >> '\#(root.path)'; sleep 0.3"]}}]}
            """#
        let world = try LinkServiceTests.World(apps: apps)
        defer { try? FileManager.default.removeItem(at: root) }
        try await world.supervising {
            async let first = world.service.open("myapp://note/7")
            async let second = world.service.open("myapp://note/7")
            let responses = await [first, second]
            #expect(
                responses.allSatisfy {
                    $0 == .accepted(route: "myapp://note/{id}", app: "com.example.A", state: .delivered)
                }
            )
            #expect(world.spooled.isEmpty, "delivered: the link left the spool")
            // Once nothing holds the service, every program it started has exited: the file is whole.
            try await world.service.activity.waitUntilQuiet()
        }
        #expect(try await lines(of: root, count: 1).count == 1)
    }
}
