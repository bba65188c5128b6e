package import LinkdFormats
import LinkdSystem

/// The verifiers of resets linkd requested (`linkd reset request`), one per app, in a folder the caller names
/// (`$XDG_STATE_HOME/linkd/pkce/`; folder 0700, files 0600); those of sign-ins it started (`linkd login`) are kept
/// apart (`pkce-signin/`), so that a reset's verifier never proves a sign-in link, nor the other way round.
///
/// A verifier stays until the exchange it proves succeeds, which removes it: any `code=` link can be opened, and
/// one that is not the email's must not use up the verifier the email's link needs. It expires with GoTrue's flow
/// state (300 s after the request by default), and storing a new one removes expired ones.
package struct PKCEStore: Sendable {
    /// How long a stored reset verifier is kept.
    package static let lifetime: Int64 = 300
    /// How long a stored sign-in verifier is kept: a sign-in started in the browser may take a while.
    package static let signInLifetime: Int64 = 600

    /// What the verifiers of a store prove.
    package enum Purpose: Sendable {
        /// Resets requested with `linkd reset request`.
        case reset
        /// Sign-ins started with `linkd login`.
        case signIn
        /// Sign in with Apple started with `linkd login --provider apple`: the secret its state and nonce come from.
        case appleSignIn
    }

    /// The folder the verifiers are kept in.
    package let directory: String
    /// How long a verifier stored here is kept, in seconds.
    package let verifierLifetime: Int64

    /// The store kept in `pkce` under linkd's state folder (`$XDG_STATE_HOME/linkd`, as the caller found it), created
    /// (0700) when the first verifier is stored.
    package init(stateFolder: String, purpose: Purpose = .reset) {
        switch purpose {
        case .reset: (directory, verifierLifetime) = (stateFolder + "/pkce", Self.lifetime)
        case .signIn: (directory, verifierLifetime) = (stateFolder + "/pkce-signin", Self.signInLifetime)
        case .appleSignIn: (directory, verifierLifetime) = (stateFolder + "/apple-signin", Self.signInLifetime)
        }
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
        init(_ error: SystemError, path: String) {
            if case .file(_, let file, _) = error {
                self.path = file
            } else {
                self.path = path
            }
            errno = error.errno.rawValue
        }
    }

    /// Stores `verifier` for `app`, replacing an earlier one (the backend honours the newest email only);
    /// `inBrowser` marks a sign-in started in the browser (`linkd login --provider`), whose address a browser's
    /// command line showed, so that what comes back is confirmed before it is kept.
    package func store(_ verifier: Secret, app: String, now: Int64, inBrowser: Bool = false) throws(Unwritable) {
        do throws(SystemError) {
            try FileSystem.makePrivateDirectory(directory)
        } catch {
            throw Unwritable(error, path: directory)
        }
        removeExpired(now: now)
        let path = file(for: app)
        do throws(SystemError) {
            try FileSystem.writeAtomically(
                Self.contents(verifier, expires: now + verifierLifetime, inBrowser: inBrowser),
                to: path
            )
        } catch {
            throw Unwritable(error, path: path)
        }
    }

    /// Stores a new verifier for `app`, then runs `request` with its S256 challenge; the verifier is forgotten again
    /// when the request fails. It is kept before the request goes out, since the email may arrive before the answer.
    ///
    /// - Parameter failure: the kind of failure thrown, a reset's or a sign-in's.
    /// - Throws: a failure of `failure`'s type, of its `stateUnwritable` kind when the verifier cannot be stored
    ///   (nothing is sent), or the request's failure.
    package func requestWithNewVerifier<Kind: SessionFailureKind>(
        app: String,
        now: Int64,
        inBrowser: Bool = false,
        failing failure: SessionFailure<Kind>.Type,
        _ request: (_ challenge: String) async throws(SessionError) -> Void
    ) async throws(SessionFailure<Kind>) {
        let verifier = PKCE.makeVerifier()
        do {
            try store(Secret(verifier), app: app, now: now, inBrowser: inBrowser)
        } catch {
            throw SessionFailure(error)
        }
        do throws(SessionError) {
            try await request(PKCE.challenge(for: verifier))
        } catch {
            remove(Secret(verifier), app: app)
            throw SessionFailure(error)
        }
    }

    /// The verifier stored for `app`, left in the store; `nil` when there is none or it expired. Only the exchange
    /// it proves removes it (``PKCEVerifier/spend()``): a link that fails, or is someone else's, leaves it for the
    /// link of the email it was stored for.
    package func verifier(for app: String, now: Int64) -> PKCEVerifier? {
        guard let stored = Self.entry(file(for: app), now: now) else { return nil }
        return PKCEVerifier(stored.verifier, store: self, app: app, startedInBrowser: stored.inBrowser)
    }

    /// Removes the verifier of `app` when it is still `verifier` (a newer request's is kept).
    package func remove(_ verifier: Secret, app: String) {
        let path = file(for: app)
        guard Self.read(path, now: nil) == verifier else { return }
        var generator = SystemRandomNumberGenerator()
        let claimed = path + ".taken-" + String(generator.next() as UInt64, radix: 16)
        guard FileSystem.rename(path, to: claimed) else { return }
        if Self.read(claimed, now: nil) != verifier {
            // A newer request stored its verifier between the read and the rename: it goes back, unless a still newer
            // one is there already.
            _ = FileSystem.addName(path, to: claimed)
        }
        FileSystem.remove(claimed)
    }

    /// The verifier in the file `path`, when it has not expired at `now` (`nil`: whatever its expiry).
    private static func read(_ path: String, now: Int64?) -> Secret? {
        entry(path, now: now)?.verifier
    }

    /// The verifier in the file `path` and whether its sign-in was started in the browser, when it has not expired
    /// at `now` (`nil`: whatever its expiry).
    private static func entry(_ path: String, now: Int64?) -> (verifier: Secret, inBrowser: Bool)? {
        FileSystem.contents(of: path).flatMap { entry(inContents: $0, now: now) }
    }

    /// What a verifier's file holds: `{"verifier":"…","expires":<Unix seconds>}`, with `"browser": true` for a
    /// sign-in started in the browser, which ``entry(inContents:now:)`` and ``expiry(inContents:)`` read back.
    package static func contents(_ verifier: Secret, expires: Int64, inBrowser: Bool = false) -> [UInt8] {
        let text = JSONValue.object(
            [("verifier", .string(verifier.revealed())), ("expires", .number(expires))]
                + (inBrowser ? [("browser", .bool(true))] : [])
        ).serialized
        return Array(text.utf8)
    }

    /// The verifier in a file's `bytes`, when it has not expired at `now` (`nil`: whatever its expiry); `nil` when
    /// they are no JSON object with a string `verifier` and an integer `expires`.
    package static func verifier(inContents bytes: [UInt8], now: Int64?) -> Secret? {
        entry(inContents: bytes, now: now)?.verifier
    }

    /// The verifier in a file's `bytes` and whether its sign-in was started in the browser, as
    /// ``verifier(inContents:now:)`` reads it.
    package static func entry(inContents bytes: [UInt8], now: Int64?) -> (verifier: Secret, inBrowser: Bool)? {
        guard let object = try? JSONValue.parse(bytes), let verifier = object["verifier"]?.stringValue,
            let expires = object["expires"]?.int64Value, now.map({ expires > $0 }) ?? true
        else { return nil }
        return (Secret(verifier), object["browser"]?.boolValue == true)
    }

    /// When the verifier in a file's `bytes` expires, in Unix seconds; `nil` when they hold no integer `expires`
    /// (such a file counts as expired).
    package static func expiry(inContents bytes: [UInt8]) -> Int64? {
        (try? JSONValue.parse(bytes))?["expires"]?.int64Value
    }

    /// Removes the verifiers whose flow has expired.
    private func removeExpired(now: Int64) {
        // Names with a dot are files a store or take is working on.
        for name in FileSystem.names(in: directory) where !name.contains(".") {
            let path = directory + "/" + name
            if (FileSystem.contents(of: path).flatMap(Self.expiry(inContents:)) ?? 0) <= now {
                FileSystem.remove(path)
            }
        }
    }

    /// The file of `app`: its name hex-encoded, so that no app id can name a path elsewhere.
    func file(for app: String) -> String {
        directory + "/" + Hex.lowercase(Array(app.utf8))
    }
}

/// A stored verifier read for one exchange. It stays in the store until ``spend()``, which the exchange that
/// succeeds calls.
package struct PKCEVerifier: Sendable {
    /// The verifier.
    package let value: Secret
    /// Whether its sign-in was started in the browser (`linkd login --provider`): what comes back is confirmed.
    package let startedInBrowser: Bool
    private let store: PKCEStore?
    private let app: String

    /// A verifier that no store keeps (``spend()`` does nothing).
    package init(_ value: Secret) {
        self.init(value, store: nil, app: "", startedInBrowser: false)
    }

    init(_ value: Secret, store: PKCEStore?, app: String, startedInBrowser: Bool) {
        self.value = value
        self.store = store
        self.app = app
        self.startedInBrowser = startedInBrowser
    }

    /// Removes the verifier from the store it was read from, unless a newer request replaced it there.
    package func spend() {
        store?.remove(value, app: app)
    }
}
