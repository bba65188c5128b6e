import Glibc

/// Spool entry files as a daemon that stopped leaves them, written fast (plain writes, no `fsync`): tests fill a
/// spool with thousands of them.
package enum SpoolFiles {
    /// The JSON of an entry: `kind` and its `members` (`"app": "a", "expires": 5`, say) after the common ones.
    package static func entry(id: String, url: String, kind: String, members: String = "") -> String {
        let extra = members.isEmpty ? "" : ", " + members
        return #"{"id": "\#(id)", "url": "\#(url)", "attempts": 1, "accepted": 1, "kind": "\#(kind)"\#(extra)}"#
    }

    /// The id of the `number`th entry a test writes: 32 hex digits, like the daemon's.
    package static func id(_ number: Int) -> String {
        let digits = String(number, radix: 16)
        return String(repeating: "0", count: 32 - digits.count) + digits
    }

    /// Writes `text` to the file `path` (created 0600, or emptied).
    ///
    /// - Returns: whether all of it was written.
    @discardableResult
    package static func write(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }
}
