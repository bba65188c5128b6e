import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// `linkd open` sends nothing unless the runtime folder is the user's own and the socket's peer is the user: in a
/// shared or misconfigured `XDG_RUNTIME_DIR`, another user's process could be listening where the daemon should.
@Suite(.ownThread) struct ClientChecksTests {
    @Test(arguments: [0o755, 0o770, 0o701])
    func aRuntimeFolderOthersCanEnterIsRefusedBeforeAnythingIsSent(_ mode: Int) throws {
        let world = try DaemonHarness()
        chmod(world.runtime.path, mode_t(mode))
        let output = try world.run(["open", "myapp://note/1#access_token=a.b.c&refresh_token=r"])
        #expect(output.status == 77)
        #expect(
            output.stderr
                == "Error: '\(world.runtime.path)' has mode \(String(mode, radix: 8)), not 700; linkd sends nothing there\n"
        )
        #expect(world.daemonPIDs().isEmpty, "no daemon was started")
        #expect(!FileManager.default.fileExists(atPath: world.spoolPath))
    }

    @Test func aRuntimeFolderThatIsALinkIsRefused() throws {
        let world = try DaemonHarness()
        let link = world.root.appendingPathComponent("xrt-link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: world.runtime)
        let output = try world.run(["open", "myapp://note/1"], extra: ["XDG_RUNTIME_DIR": link.path])
        #expect(output.status == 77)
        #expect(output.stderr == "Error: '\(link.path)' is a symbolic link; linkd sends nothing there\n")
    }

    @Test func aDaemonRefusesToListenInARuntimeFolderOthersCanEnter() throws {
        let world = try DaemonHarness()
        chmod(world.runtime.path, 0o755)
        let output = try world.run(["daemon"])
        #expect(output.status == 77)
        #expect(output.stderr.contains("has mode 755, not 700; linkd listens only in a private runtime folder"))
    }

    /// A process of another user listening at the socket's path gets nothing: not the link, not a password.
    @Test(.enabled(if: getuid() == 0, "needs root to listen as another uid"))
    func aSocketServedByAnotherUserGetsNothing() throws {
        let world = try DaemonHarness()
        let folder = world.runtime.appendingPathComponent("linkd")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o700)
        let received = world.root.appendingPathComponent("impostor.txt")  // its standard output, opened by the test
        // Bound as root in the private folder, then listening as uid 65534: SO_PEERCRED names who called listen().
        let impostor = try world.script(
            "impostor.py",
            """
            import os, socket, sys
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.bind("\(world.socketPath)")
            os.setgid(65534); os.setuid(65534)
            server.listen(4)
            print("ready", flush=True)
            connection, _ = server.accept()
            connection.settimeout(2)
            data = b""
            try:
                data = connection.recv(65536)
            except OSError:
                pass
            print(repr(data), flush=True)

            """
        )
        let listener = try SpawnedProcess(
            "/usr/bin/python3",
            [impostor.path],
            environment: ["PATH": "/usr/bin:/bin"],
            stdoutPath: received.path
        )
        defer { listener.terminate() }
        #expect(world.waitUntil(.seconds(5)) { FileManager.default.fileExists(atPath: world.socketPath) })
        let output = try world.run(
            ["open", "--password-stdin", "myapp://reset#access_token=a.b.c&refresh_token=CANARYr"],
            stdin: Data("Canary-pass\n".utf8)
        )
        #expect(output.status == 77)
        #expect(
            output.stderr
                == "Error: the socket '\(world.socketPath)' is served by uid 65534, not this user; nothing was sent\n"
        )
        listener.waitUntilExit()
        #expect(try String(contentsOf: received, encoding: .utf8) == "ready\nb''\n", "the impostor received nothing")
    }

    /// Without a runtime folder there is no place for a socket: 69, saying so, nothing started or written.
    @Test func noRuntimeFolderIsUnavailable() throws {
        let world = try DaemonHarness()
        // Unset (empty counts as unset), linkd would use /run/user/<uid> when the machine has it.
        if !FileManager.default.fileExists(atPath: "/run/user/\(getuid())") {
            let unset = try world.run(["open", "myapp://note/1"], extra: ["XDG_RUNTIME_DIR": ""])
            #expect(unset.status == 69)
            #expect(unset.stderr == "Error: XDG_RUNTIME_DIR is not set, so there is no place for the linkd socket\n")
        }
        let missing = world.root.appendingPathComponent("gone").path
        let absent = try world.run(["open", "myapp://note/1"], extra: ["XDG_RUNTIME_DIR": missing])
        #expect(absent.status == 69)
        #expect(
            absent.stderr
                == "Error: XDG_RUNTIME_DIR '\(missing)' does not exist, so there is no place for the linkd socket\n"
        )
        #expect(!FileManager.default.fileExists(atPath: missing), "nothing made there")
        #expect(world.daemonPIDs().isEmpty)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to give the folder to another uid"))
    func aRuntimeFolderOfAnotherUserIsRefused() throws {
        let world = try DaemonHarness()
        chown(world.runtime.path, 65_534, 65_534)
        let output = try world.run(["open", "myapp://note/1#access_token=a.b.c&refresh_token=r"])
        #expect(output.status == 77)
        #expect(
            output.stderr == "Error: '\(world.runtime.path)' is owned by uid 65534, not 0; linkd sends nothing there\n"
        )
        #expect(world.daemonPIDs().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: world.spoolPath))
    }

    /// A socket path longer than `sun_path` can hold could never be listened on: said before anything starts.
    @Test func aRuntimeFolderTooLongForASocketIsUnavailable() throws {
        let world = try DaemonHarness()
        let long = world.runtime.appendingPathComponent(String(repeating: "x", count: 110))
        try FileManager.default.createDirectory(at: long, withIntermediateDirectories: true)
        chmod(long.path, 0o700)
        let output = try world.run(["open", "myapp://note/1"], extra: ["XDG_RUNTIME_DIR": long.path])
        let socket = long.path + "/linkd/socket"
        #expect(output.status == 69)
        #expect(
            output.stderr
                == "Error: the socket path '\(socket)' has \(socket.utf8.count) bytes, more than the 107 a socket path "
                + "may have; linkd needs a shorter XDG_RUNTIME_DIR\n"
        )
        #expect(world.daemonPIDs().isEmpty, "no daemon was started")
        #expect(!FileManager.default.fileExists(atPath: long.path + "/linkd"))
    }
}
