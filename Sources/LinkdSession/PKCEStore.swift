import Glibc
package import LinkdFormats

/// The verifiers of resets linkd requested (`linkd reset request`), one per app, in a folder the caller names
/// (`$XDG_STATE_HOME/linkd/pkce/`; folder 0700, files 0600).
///
/// A verifier is taken once: the first `take` renames it away before reading it. It expires with GoTrue's flow
/// state (300 s after the request by default), and storing a new one removes expired ones.
package struct PKCEStore: Sendable {
    /// How long a stored verifier is kept.
    package static let lifetime: Int64 = 300

    /// The folder the verifiers are kept in.
    package let directory: String

    /// The store kept in `pkce` under linkd's state folder (`$XDG_STATE_HOME/linkd`, as the caller found it), created
    /// (0700) when the first verifier is stored.
    package init(stateFolder: String) {
        self.directory = stateFolder + "/pkce"
    }

    /// Why a verifier could not be stored.
    package struct Unwritable: Error, Sendable, Equatable, CustomStringConvertible {
        /// The file or folder that could not be written.
        package var path: String
        /// Why, as `errno`.
        package var errno: Int32
        /// "cannot write PATH: <strerror>".
        package var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
    }

    /// Stores `verifier` for `app`, replacing an earlier one (the backend honours the newest email only).
    package func store(_ verifier: Secret, app: String, now: Int64) throws(Unwritable) {
        try makeDirectories()
        removeExpired(now: now)
        let path = file(for: app)
        let temporary = path + ".new"
        let text = JSONValue.object([
            ("verifier", .string(verifier.revealed())), ("expires", .number(now + Self.lifetime)),
        ]).serialized
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw Unwritable(path: temporary, errno: errno) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw Unwritable(path: path, errno: failure)
        }
    }

    /// The verifier stored for `app`, removed from the store; `nil` when there is none or it expired.
    package func take(app: String, now: Int64) -> Secret? {
        let path = file(for: app)
        var generator = SystemRandomNumberGenerator()
        let claimed = path + ".taken-" + String(generator.next() as UInt64, radix: 16)
        guard rename(path, claimed) == 0 else { return nil }
        defer { unlink(claimed) }
        guard let bytes = Self.contents(claimed), let object = try? JSONValue.parse(bytes),
            let verifier = object["verifier"]?.stringValue, let expires = object["expires"]?.int64Value, expires > now
        else { return nil }
        return Secret(verifier)
    }

    /// Removes the verifiers whose flow has expired.
    private func removeExpired(now: Int64) {
        guard let folder = opendir(directory) else { return }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.contains(".") else { continue }  // ".", "..", and files a store or take is working on
            let path = directory + "/" + name
            let expires = Self.contents(path).flatMap { try? JSONValue.parse($0) }?["expires"]?.int64Value
            if (expires ?? 0) <= now { unlink(path) }
        }
    }

    /// The file of `app`: its name hex-encoded, so that no app id can name a path elsewhere.
    func file(for app: String) -> String {
        let hex = Array("0123456789abcdef")
        return directory + "/" + String(app.utf8.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0xF)]] })
    }

    private func makeDirectories() throws(Unwritable) {
        var path = ""
        for component in directory.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw Unwritable(path: path, errno: errno) }
        }
        chmod(directory, 0o700)
    }

    private static func contents(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }
}
