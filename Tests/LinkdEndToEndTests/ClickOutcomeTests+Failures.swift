import Foundation
import Glibc
import LinkdTestSupport
import Testing

/// A missing program, and a session bus that stopped answering.
extension ClickOutcomeTests {
    @Test func aLinkWhoseProgramIsMissingIsNotifiedAndTheAppsOtherLinksStillOpen() throws {
        let world = try DaemonHarness()
        try writeAppsWithAMissingProgram(world)
        let desktop = try ClickDesktop(world)
        desktop.expectClick(
            Self.missingProgram,
            shows: "linkd\tThe link was not opened: com.example.Notes: the program &#39;notes-handler&#39; cannot be "
                + "found; run &#39;linkd check&#39;."
        )
        desktop.expectClick(Self.opening, shows: Self.openedLine)
        desktop.expectReceived([Self.opening])
    }

    /// A session bus that has stopped answering (a frozen dbus-daemon: its socket still accepts connections, but
    /// nothing replies to the authentication) must not hold `linkd open` longer than a server that never answers.
    @Test(.disabled(if: !TimeBounds.hold, TimeBounds.reason))
    func aSessionBusThatHangsDelaysTheExitByAtMostOneSecond() throws {
        let world = try DaemonHarness()
        let daemon = try world.startDaemon()
        defer { kill(daemon.pid, SIGKILL) }
        let path = world.root.path + "/frozen-bus"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0 && listen(listener, 16) == 0)
        let errors = world.root.appendingPathComponent("open.err").path
        let clock = ContinuousClock()
        let start = clock.now
        let open = try world.start(
            ["open", Self.expired],
            extra: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + path],
            stderrPath: errors
        )
        // Its exit is an event of its pidfd; give it 1 s for the bus and 1.5 s for a loaded machine.
        let exited = ProcessExit.wait(for: [open.pid], until: start + .milliseconds(2500))
        let elapsed = clock.now - start
        if !exited { kill(open.pid, SIGKILL) }
        open.waitUntilExit()
        #expect(exited, "linkd open still running after \(elapsed)")
        #expect(open.terminationStatus == 65)
        #expect((try? String(contentsOfFile: errors, encoding: .utf8)) == Self.expiredError)
    }
}
