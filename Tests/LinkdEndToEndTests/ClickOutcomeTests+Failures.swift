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
        let listener = try SilentListener(at: path)
        defer { withExtendedLifetime(listener) {} }  // it listens until the test ends
        let errors = world.root.appendingPathComponent("open.err").path
        let clock = ContinuousClock()
        let start = clock.now
        let open = try world.start(
            ["open", Self.expired],
            extra: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + listener.path],
            stderrPath: errors
        )
        // Its exit is an event of its pidfd; give it 1 s for the bus and 5 s for a machine busy with the whole suite,
        // far below the 25 s sd-bus waits by default, which is what this catches.
        let exited = ProcessExit.wait(for: [open.pid], until: start + .seconds(6))
        let elapsed = clock.now - start
        if !exited { kill(open.pid, SIGKILL) }
        open.waitUntilExit()
        #expect(exited, "linkd open still running after \(elapsed)")
        #expect(open.terminationStatus == 65)
        #expect((try? String(contentsOfFile: errors, encoding: .utf8)) == Self.expiredError)
    }
}
