import CSystemd
import Glibc

/// Structured entries for the systemd journal, through `sd_journal_sendv(3)`.
package enum Journal {
    /// Syslog priorities (`PRIORITY=`).
    package enum Priority: Int, Sendable {
        case error = 3
        case warning = 4
        case notice = 5
        case info = 6
        case debug = 7
    }

    /// Whether a journal is listening (`/run/systemd/journal/socket` exists).
    package static var isAvailable: Bool {
        access("/run/systemd/journal/socket", F_OK) == 0
    }

    /// Sends one entry: `MESSAGE=`, `PRIORITY=`, `SYSLOG_IDENTIFIER=` and `fields` (upper-case names).
    ///
    /// - Throws: ``SystemError/journalFailed(errno:)``, or ``SystemError/libsystemdMissing(reason:)``.
    package static func send(
        _ message: String,
        priority: Priority,
        identifier: String,
        fields: [(String, String)] = []
    ) throws(SystemError) {
        let entries =
            [("MESSAGE", message), ("PRIORITY", String(priority.rawValue)), ("SYSLOG_IDENTIFIER", identifier)] + fields
        var buffers = entries.map { Array(($0.0 + "=" + $0.1).utf8) }
        let sendv = try Libsystemd.calls().pointee.journal_sendv
        let result = buffers.withUnsafeMutableBufferPointer { buffers -> Int32 in
            var vectors: [iovec] = []
            vectors.reserveCapacity(buffers.count)
            for index in buffers.indices {
                buffers[index].withUnsafeMutableBytes { bytes in
                    vectors.append(iovec(iov_base: bytes.baseAddress, iov_len: bytes.count))
                }
            }
            // The pointers stay valid: the arrays are not mutated until sd_journal_sendv returns.
            return sendv(vectors, Int32(vectors.count))
        }
        if result < 0 { throw .journalFailed(errno: Errno(rawValue: -result)) }
    }
}
