import Foundation
package import Testing

/// Whether the tests run under a sanitizer (`scripts/sanitize` sets `LINKD_SANITIZER`). Instrumented code is several
/// times slower and bigger: a test that bounds time or memory holds for the plain build, and is left out there.
package enum Sanitizer {
    package static var isActive: Bool { ProcessInfo.processInfo.environment["LINKD_SANITIZER"] != nil }
    /// Why a test is left out under a sanitizer.
    package static let reason: Comment = "bounds time or memory, which an instrumented build does not keep"
}
