package import LinkdRouting
package import LinkdSession

extension WireProtocol {
    /// Why a request or a link failed, for a program to act on: one word of `a`–`z`, `0`–`9` and `_`, at most 64
    /// bytes long (`no_app`, `link_expired`, `too_many_programs`).
    ///
    /// The daemon's own reasons are the constants below, with those of a link's refusal
    /// (``init(_:)-(RefusalReason)``) and of the session layer (``init(_:)-(ResetFailureKind)``,
    /// ``init(_:)-(SignInFailureKind)``). A reason read from a daemon is kept as it is when it is such a word, so
    /// that a newer daemon's reasons pass through; anything else reads as ``badResponse``, so that no byte a daemon
    /// sends reaches a terminal unchecked.
    package struct Reason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        package let rawValue: String

        /// `rawValue` when it is one word of `a`–`z`, `0`–`9` and `_` of 1 to 64 bytes; `nil` otherwise.
        package init?(rawValue: String) {
            guard (1...64).contains(rawValue.utf8.count), rawValue.utf8.allSatisfy(Self.isWordByte) else { return nil }
            self.rawValue = rawValue
        }

        private init(_ word: StaticString) {
            rawValue = word.description
        }

        /// The reason a link's refusal gives (`conflicting_parameter`, `bad_scheme` …).
        package init(_ refusal: RefusalReason) {
            rawValue = refusal.rawValue
        }

        /// The reason a reset failed, in the session layer's words (`link_expired`, `cancelled` …).
        package init(_ kind: ResetFailureKind) {
            rawValue = kind.rawValue
        }

        /// The reason a sign-in failed, in the session layer's words (`link_expired`, `backend_unreachable` …).
        package init(_ kind: SignInFailureKind) {
            rawValue = kind.rawValue
        }

        package var description: String { rawValue }

        private static func isWordByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_")
        }

        // The request and the connection.
        /// The request line is no request of this protocol.
        package static let badRequest = Reason("bad_request")
        /// The request's `op` is none this daemon knows.
        package static let unknownOp = Reason("unknown_op")
        /// The request line is longer than ``WireProtocol/maximumLine``.
        package static let tooLong = Reason("too_long")
        /// A daemon's answer could not be read.
        package static let badResponse = Reason("bad_response")
        /// The client runs as another user than the daemon.
        package static let wrongUser = Reason("wrong_user")
        /// A subscription's key is not the app's.
        package static let wrongKey = Reason("wrong_key")

        // The daemon's limits and state.
        /// The daemon is stopping and did nothing with the link.
        package static let daemonStopping = Reason("daemon_stopping")
        /// As many clients as the daemon serves are connected.
        package static let tooManyClients = Reason("too_many_clients")
        /// As many programs of links as the daemon runs are running.
        package static let tooManyPrograms = Reason("too_many_programs")
        /// As many links as an app may have waiting wait for it to subscribe.
        package static let forwardQueueFull = Reason("forward_queue_full")
        /// The spool holds as many links as it may.
        package static let spoolFull = Reason("spool_full")
        /// The disk (or the user's quota) is full.
        package static let diskFull = Reason("disk_full")
        /// The spool folder cannot be written.
        package static let spoolUnwritable = Reason("spool_unwritable")

        // Routing.
        /// No app claims the link.
        package static let noApp = Reason("no_app")
        /// No route of the apps given matches the link (`linkd parse`, `linkd route` without apps.d).
        package static let noRoute = Reason("no_route")
        /// A clicked web link's app cannot take it now (`linkd open --web`): it opens in the browser instead.
        package static let appUnavailable = Reason("app_unavailable")
        /// A value the link or a pattern holds is not valid.
        package static let badValue = Reason("bad_value")

        // Actions.
        /// The action failed (an app's D-Bus method returned an error, say).
        package static let actionFailed = Reason("action_failed")
        /// The program of an `exec` action is not there.
        package static let programNotFound = Reason("program_not_found")
        /// The program of an `exec` action, or a folder above it, may be changed by another user.
        package static let programNotTrusted = Reason("program_not_trusted")
        /// The app has no backend for the link's flow.
        package static let noBackend = Reason("no_backend")
        /// An emailed backend link (`…/auth/v1/verify`) whose backend sends it to a link of another app, or to none.
        package static let foreignRedirect = Reason("foreign_redirect")
        /// The backend refused an emailed link when linkd asked where it leads.
        package static let linkRefused = Reason("link_refused")

        // The reset and sign-in.
        /// The client can give no password, and no askpass helper is configured.
        package static let noPasswordSource = Reason("no_password_source")
        /// The askpass program is not there.
        package static let askpassNotFound = Reason("askpass_not_found")
        /// The backend's token says the link's session was made by no reset email.
        package static let notAReset = Reason("not_a_reset")
        /// The link is no sign-in this app's backend completes.
        package static let notASignIn = Reason("not_a_signin")
        /// A sign-in callback that no sign-in of linkd started.
        package static let notStartedByLinkd = Reason("not_started_by_linkd")
        /// A `linkd login` waited for a sign-in that did not come back to it (another login took its place, the
        /// daemon stopped, the wait ran out).
        package static let notWaitedFor = Reason("not_waited_for")
        /// A sign-in callback without the identity token it needs.
        package static let noIDToken = Reason("no_id_token")
        /// The identity token's nonce is not the one linkd sent.
        package static let nonceMismatch = Reason("nonce_mismatch")
        /// The person did not confirm the sign-in.
        package static let notConfirmed = Reason("not_confirmed")
        /// No one can confirm the sign-in: no terminal waits and no notification can ask.
        package static let cannotConfirm = Reason("cannot_confirm")
        /// The person cancelled the sign-in at the provider (Apple's Cancel, an OAuth `access_denied`).
        package static let signInCancelled = Reason("signin_cancelled")
        /// The provider ended the sign-in with an error of its own.
        package static let providerError = Reason("provider_error")
    }
}
