import Foundation
import LinkdTestSupport
import Testing

/// The shipped service unit confines the daemon as far as a user unit can without breaking the desktop apps its
/// `exec` action starts (which run under the same unit: the activation tests run them under a real manager).
@Suite(.ownThread) struct UnitHardeningTests {
    /// `systemd-analyze security` scores the unit's exposure from 0 (confined) to 10; the unit without its system
    /// call filter, memory and task bounds scored 8.7.
    @Test func systemdAnalyzeScoresTheServiceAtMostSevenPointSeven() throws {
        let units = try ShippedUnits()
        let service = try String(contentsOf: units.service, encoding: .utf8)
        #expect(service.contains("\nSystemCallErrorNumber=EPERM\n"), "a filtered call fails; it does not kill the app")
        #expect(service.contains("\nMemoryMax="))
        #expect(service.contains("\nTasksMax="))
        // --threshold is on the 0–100 scale: exit 0 when the exposure is at most 7.7.
        let (status, report) = try units.analyze(
            ["security", "--offline=true", "--threshold=77", "--user", units.service.path]
        )
        #expect(status == 0, "\(report.split(separator: "\n").last ?? "")")
        for group in ["@clock", "@module", "@raw-io", "@reboot", "@swap", "@obsolete", "@cpu-emulation"] {
            #expect(report.contains("✓ SystemCallFilter=~\(group) "), "\(group) is filtered")
        }
    }
}
