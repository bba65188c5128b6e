package import LinkdFormats
import LinkdSystem

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
        package var description: String { "cannot write \(path): \(Errno(rawValue: errno))" }

        /// The failure of a file-system call, naming the file it was about (`path` when it names none).
        init(_ error: SystemdError, path: String) {
            if case .file(_, let file, _) = error {
                self.path = file
            } else {
                self.path = path
            }
            errno = error.errno.rawValue
        }
    }

    /// Stores `verifier` for `app`, replacing an earlier one (the backend honours the newest email only).
    package func store(_ verifier: Secret, app: String, now: Int64) throws(Unwritable) {
        do throws(SystemdError) {
            try FileSystem.makePrivateDirectory(directory)
        } catch {
            throw Unwritable(error, path: directory)
        }
        removeExpired(now: now)
        let path = file(for: app)
        let text = JSONValue.object([
            ("verifier", .string(verifier.revealed())), ("expires", .number(now + Self.lifetime)),
        ]).serialized
        do throws(SystemdError) {
            try FileSystem.writeAtomically(Array(text.utf8), to: path)
        } catch {
            throw Unwritable(error, path: path)
        }
    }

    /// The verifier stored for `app`, removed from the store; `nil` when there is none or it expired.
    package func take(app: String, now: Int64) -> Secret? {
        let path = file(for: app)
        var generator = SystemRandomNumberGenerator()
        let claimed = path + ".taken-" + String(generator.next() as UInt64, radix: 16)
        guard FileSystem.rename(path, to: claimed) else { return nil }
        defer { FileSystem.remove(claimed) }
        guard let bytes = FileSystem.contents(of: claimed), let object = try? JSONValue.parse(bytes),
            let verifier = object["verifier"]?.stringValue, let expires = object["expires"]?.int64Value, expires > now
        else { return nil }
        return Secret(verifier)
    }

    /// Removes the verifiers whose flow has expired.
    private func removeExpired(now: Int64) {
        // Names with a dot are files a store or take is working on.
        for name in FileSystem.names(in: directory) where !name.contains(".") {
            let path = directory + "/" + name
            let expires = FileSystem.contents(of: path).flatMap { try? JSONValue.parse($0) }?["expires"]?.int64Value
            if (expires ?? 0) <= now { FileSystem.remove(path) }
        }
    }

    /// The file of `app`: its name hex-encoded, so that no app id can name a path elsewhere.
    func file(for app: String) -> String {
        let hex = Array("0123456789abcdef")
        return directory + "/" + String(app.utf8.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0xF)]] })
    }
}
