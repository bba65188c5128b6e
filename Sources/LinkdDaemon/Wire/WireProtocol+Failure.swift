import LinkdFormats
package import LinkdRouting
package import LinkdSession

extension WireProtocol {
    /// A refusal in a response: `{"kind", "reason", "part"?, "message"}`.
    package struct Failure: Error, Sendable, Equatable {
        /// What kind of failure it is; it decides `linkd open`'s exit code.
        package enum Kind: String, Sendable, CaseIterable {
            /// The link is not one linkd accepts, or the action refused it (exit 65).
            case invalid
            /// No app claims the link (exit 1).
            case unmatched
            /// The request itself was malformed (exit 65).
            case request
            /// A backend refused the link or the password (exit 65).
            case refused
            /// The client's uid may not use this daemon (exit 77).
            case permission
            /// Worth retrying later (exit 75).
            case temporary
            /// An action, its program or a backend is unavailable (exit 69).
            case unavailable

            /// The exit code of `linkd open` for a link that failed this way: the one place it is decided.
            package var exitCode: Int32 {
                switch self {
                case .unmatched: 1
                case .invalid, .request, .refused: 65
                case .unavailable: 69
                case .temporary: 75
                case .permission: 77
                }
            }
        }

        package var kind: Kind
        /// The machine-readable reason (`no_app`, `conflicting_parameter`, `link_expired`, …).
        package var reason: String
        /// The part of the link a refusal names, for a refusal of the link itself.
        package var part: String?
        /// One line for a person.
        package var message: String

        package init(kind: Kind, reason: String, part: String? = nil, message: String) {
            self.kind = kind
            self.reason = reason
            self.part = part
            self.message = message
        }

        /// A malformed request.
        static func badRequest(_ message: String) -> Failure {
            Failure(kind: .request, reason: "bad_request", message: message)
        }

        /// The daemon is stopping and did not act on the link: it can be opened again as it is.
        package static let daemonStopping = Failure(
            kind: .temporary,
            reason: "daemon_stopping",
            message: "linkd is stopping and did nothing with the link; open it again"
        )

        /// `limit` clients are connected already: the new one is closed after this line.
        static func tooManyClients(limit: Int) -> Failure {
            Failure(
                kind: .temporary,
                reason: "too_many_clients",
                message:
                    "linkd serves \(limit) clients at once and did nothing with the link; open it again in a moment"
            )
        }

        /// `limit` programs of `exec` links still run: the link was not recorded, and nothing ran for it.
        static func tooManyPrograms(limit: Int) -> Failure {
            Failure(
                kind: .temporary,
                reason: "too_many_programs",
                message: "\(limit) programs of links are running already and the link was not taken; open it again "
                    + "once one has finished"
            )
        }

        /// `limit` links wait for `app` to subscribe already: the link was not recorded.
        /// A subscription whose key is not the app's: refused, nothing handed to it.
        static func wrongSubscriberKey(app: String) -> Failure {
            Failure(
                kind: .permission,
                reason: "wrong_key",
                message: "the key is not \(app)'s subscriber key; read it from linkd's keys folder again"
            )
        }

        static func forwardQueueFull(app: String, limit: Int) -> Failure {
            Failure(
                kind: .temporary,
                reason: "forward_queue_full",
                message: "\(limit) links are waiting for \(app) to take them already and the link was not taken; "
                    + "open it again once the app is running"
            )
        }

        /// The failure a routing error stands for. An unclaimed link is named by scheme and host, never by its path or
        /// parameters (`linkd route` explains a miss in full on the terminal): an unclaimed web link is said to be
        /// unclaimed by host, since linkd routes an https link only for the hosts that apps claim.
        package init(_ error: RouteError, link: LinkURL?) {
            switch error {
            case .refused(let refusal):
                self.init(
                    kind: .invalid,
                    reason: refusal.reason.rawValue,
                    part: refusal.part.rawValue,
                    message: refusal.message
                )
            case .unmatched:
                if let link, link.isSpecial {
                    self.init(
                        kind: .unmatched,
                        reason: "no_app",
                        message: "no app claims links to host '\(link.hostname)'"
                    )
                } else {
                    // By scheme and host: the message reaches notifications (and their history), and a path or query
                    // may hold what the link carries.
                    let name = link.map { DaemonLog.name(of: $0) } ?? "such"
                    self.init(
                        kind: .unmatched,
                        reason: "no_app",
                        message: "no app claims this \(name) link; 'linkd route' with the link says why"
                    )
                }
            case .invalidPattern:
                self.init(kind: .invalid, reason: "bad_value", message: error.description)
            }
        }

        /// The failure of a reset, in the session layer's words.
        package init(_ failure: ResetFailure) {
            let kind: Kind =
                switch failure.kind {
                case .linkExpiredOrUsed, .passwordRejected, .refused, .notAReset: .refused
                case .unreachable, .stateUnwritable: .unavailable
                case .temporary, .cancelled: .temporary
                }
            self.init(kind: kind, reason: failure.kind.rawValue, message: failure.message)
        }

        /// The error object. A message may quote text linkd did not write (an app's D-Bus error, say) that quotes
        /// the link, so it is redacted.
        var json: JSONValue {
            var members: [(String, JSONValue)] = [("kind", .string(kind.rawValue)), ("reason", .string(reason))]
            if let part { members.append(("part", .string(part))) }
            members.append(("message", .string(LinkRedactor.redact(message))))
            return .object(members)
        }

        /// Reads an error object a daemon sent: no kind reads as ``Kind/request``, a kind this version does not know
        /// as ``Kind/unavailable``; `nil` when it has no message.
        init?(_ object: JSONValue) {
            guard let message = object["message"]?.stringValue else { return nil }
            self.init(
                kind: object["kind"].map { $0.stringValue.flatMap(Kind.init(rawValue:)) ?? .unavailable } ?? .request,
                reason: object["reason"]?.stringValue ?? "bad_response",
                part: object["part"]?.stringValue,
                message: message
            )
        }
    }
}
