import Glibc

/// What `uname(2)` says of the machine.
package struct Machine: Sendable, Equatable {
    /// The kernel's release, such as `6.1.0-28-amd64`.
    package var kernelRelease: String
    /// The hardware architecture, such as `x86_64` or `aarch64`.
    package var architecture: String

    /// This machine; empty fields when `uname(2)` fails (it does not on Linux).
    package static var current: Machine {
        var system = utsname()
        guard uname(&system) == 0 else { return Machine(kernelRelease: "", architecture: "") }
        let field = { (bytes: UnsafeRawBufferPointer) in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
        return Machine(
            kernelRelease: withUnsafeBytes(of: &system.release, field),
            architecture: withUnsafeBytes(of: &system.machine, field)
        )
    }
}
