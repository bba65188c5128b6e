import Foundation
package import Testing

/// Whether the tests run under a sanitizer (`scripts/sanitize` sets `LINKD_SANITIZER`). Instrumented code is several
/// times slower and bigger: a test that bounds time or memory holds for the plain build, and is left out there.
package enum Sanitizer {
    package static var isActive: Bool { ProcessInfo.processInfo.environment["LINKD_SANITIZER"] != nil }
    /// Why a test is left out under a sanitizer.
    package static let reason: Comment = "bounds time or memory, which an instrumented build does not keep"
}

/// Whether a test may bound time: not under a sanitizer, and not while another run of the tests shares the machine
/// (`scripts/test-fresh-clone` sets `LINKD_TESTS_AT_ONCE` for its two runs at once, which look for what runs share,
/// not for speed; the runs before them keep every bound).
package enum TimeBounds {
    package static var hold: Bool {
        !Sanitizer.isActive && ProcessInfo.processInfo.environment["LINKD_TESTS_AT_ONCE"] == nil
    }
    /// Why a test that bounds time is left out.
    package static let reason: Comment = "bounds time, which a sanitizer's build or a shared machine does not keep"
}
