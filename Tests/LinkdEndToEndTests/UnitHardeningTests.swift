import Foundation
import LinkdTestSupport
import Testing

/// The shipped service unit confines the daemon for its own needs: the programs of its links run in units of their
/// own (``TransientUnitTests``), so nothing of its sandbox reaches them.
@Suite(.ownThread) struct UnitHardeningTests {
    /// `systemd-analyze security` scores the unit's exposure from 0 (confined) to 10.
    @Test func systemdAnalyzeScoresTheServiceAtMostThree() throws {
        let units = try ShippedUnits()
        let service = try String(contentsOf: units.service, encoding: .utf8)
        #expect(
            service.contains("\nSystemCallErrorNumber=EPERM\n"),
            "a filtered call fails; it does not kill the daemon"
        )
        #expect(!service.contains("KillMode="), "stopping linkd stops the daemon's whole control group")
        for directive in [
            "PrivateUsers=yes", "ProtectSystem=strict", "ProtectHome=read-only", "PrivateTmp=yes", "PrivateDevices=yes",
            "MemoryDenyWriteExecute=yes", "RestrictNamespaces=yes", "CapabilityBoundingSet=",
            "SystemCallFilter=@system-service", "MemoryMax=", "TasksMax=",
        ] {
            #expect(service.contains("\n\(directive)"), "\(directive)")
        }
        // --threshold is on the 0–100 scale: exit 0 when the exposure is at most 3.0.
        let (status, report) = try units.analyze(
            ["security", "--offline=true", "--threshold=30", "--user", units.service.path]
        )
        #expect(status == 0, "\(report.split(separator: "\n").last ?? "")")
        #expect(report.contains("✓ SystemCallFilter=~@clock "), "@system-service leaves the clock out")
        #expect(report.contains("✓ RestrictNamespaces=~user "))
    }
}
