package import LinkdFormats
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

            /// The exit code of a command for a link, reset or sign-in that failed this way: the one place it is
            /// decided.
            package var exitCode: ExitCode {
                switch self {
                case .unmatched: .unmatched
                case .invalid, .request, .refused: .invalid
                case .unavailable: .unavailable
                case .temporary: .temporaryFailure
                case .permission: .permission
                }
            }
        }

        package var kind: Kind
        /// The machine-readable reason (`no_app`, `conflicting_parameter`, `link_expired`, …).
        package var reason: Reason
        /// The part of the link a refusal names, for a refusal of the link itself.
        package var part: String?
        /// One line for a person.
        package var message: String

        package init(kind: Kind, reason: Reason, part: String? = nil, message: String) {
            self.kind = kind
            self.reason = reason
            self.part = part
            self.message = message
        }

        /// A malformed request.
        package static func badRequest(_ message: String) -> Failure {
            Failure(kind: .request, reason: .badRequest, message: message)
        }

        /// The daemon is stopping and did not act on the link: it can be opened again as it is.
        package static let daemonStopping = Failure(
            kind: .temporary,
            reason: .daemonStopping,
            message: "linkd is stopping and did nothing with the link; open it again"
        )

        /// A clicked web link (`"web": true`) whose app cannot take it now: nothing was done with it, and the client
        /// passes it to the browser.
        package static let appUnavailable = Failure(
            kind: .unavailable,
            reason: .appUnavailable,
            message: "the app that claims the link cannot take it now; nothing was done with it"
        )

        /// `limit` clients are connected already: the new one is closed after this line.
        package static func tooManyClients(limit: Int) -> Failure {
            Failure(
                kind: .temporary,
                reason: .tooManyClients,
                message:
                    "linkd serves \(limit) clients at once and did nothing with the link; open it again in a moment"
            )
        }

        /// `limit` programs of `exec` links still run: the link was not recorded, and nothing ran for it.
        package static func tooManyPrograms(limit: Int) -> Failure {
            Failure(
                kind: .temporary,
                reason: .tooManyPrograms,
                message: "\(limit) programs of links are running already and the link was not taken; open it again "
                    + "once one has finished"
            )
        }

        /// `limit` links wait for `app` to subscribe already: the link was not recorded.
        /// A subscription whose key is not the app's: refused, nothing handed to it.
        package static func wrongSubscriberKey(app: String) -> Failure {
            Failure(
                kind: .permission,
                reason: .wrongKey,
                message: "the key is not \(app)'s subscriber key; read it from linkd's keys folder again"
            )
        }

        package static func forwardQueueFull(app: String, limit: Int) -> Failure {
            Failure(
                kind: .temporary,
                reason: .forwardQueueFull,
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
                    reason: Reason(refusal.reason),
                    part: refusal.part.rawValue,
                    message: refusal.message
                )
            case .unmatched:
                if let link, link.isSpecial {
                    self.init(
                        kind: .unmatched,
                        reason: .noApp,
                        message: "no app claims links to host '\(link.hostname)'"
                    )
                } else {
                    // By scheme and host: the message reaches notifications (and their history), and a path or query
                    // may hold what the link carries.
                    let name = link.map(Self.name(of:)) ?? "such"
                    self.init(
                        kind: .unmatched,
                        reason: .noApp,
                        message: "no app claims this \(name) link; 'linkd route' with the link says why"
                    )
                }
            case .invalidPattern:
                self.init(kind: .invalid, reason: .badValue, message: error.description)
            }
        }

        /// The failure of a sign-in, in the session layer's words.
        package init(_ failure: SignInFailure) {
            let kind: Kind =
                switch failure.kind {
                case .linkExpiredOrUsed, .refused: .refused
                case .unreachable, .stateUnwritable: .unavailable
                case .temporary: .temporary
                case .notASignIn, .notStartedByLinkd, .noIDToken, .nonceMismatch: .invalid
                }
            self.init(kind: kind, reason: Reason(failure.kind), message: failure.message)
        }

        /// The failure of a reset, in the session layer's words.
        package init(_ failure: ResetFailure) {
            let kind: Kind =
                switch failure.kind {
                case .linkExpiredOrUsed, .passwordRejected, .refused, .notAReset: .refused
                case .unreachable, .stateUnwritable: .unavailable
                case .temporary, .cancelled: .temporary
                }
            self.init(kind: kind, reason: Reason(failure.kind), message: failure.message)
        }

        /// A link named by scheme and host, never by its path or parameters: `'myapp://reset'`, `'mailto:'`.
        package static func name(of link: LinkURL) -> String {
            guard let host = link.host else { return "'\(link.scheme):'" }
            return "'\(link.scheme)://\(host)\(link.port.map { ":\($0)" } ?? "")'"
        }

        /// The error object. A message may quote text linkd did not write (an app's D-Bus error, say) that quotes
        /// the link, so it is redacted.
        package var json: JSONValue {
            var members: [(String, JSONValue)] = [
                ("kind", .string(kind.rawValue)), ("reason", .string(reason.rawValue)),
            ]
            if let part { members.append(("part", .string(part))) }
            members.append(("message", .string(LinkRedactor.redact(message))))
            return .object(members)
        }

        /// Reads an error object a daemon sent: no kind reads as ``Kind/request``, a kind this version does not know
        /// as ``Kind/unavailable``, no reason or one that is no ``Reason`` as ``Reason/badResponse``; `nil` when it
        /// has no message.
        package init?(_ object: JSONValue) {
            guard let message = WireProtocol.daemonText(object["message"]) else { return nil }
            self.init(
                kind: object["kind"].map { $0.stringValue.flatMap(Kind.init(rawValue:)) ?? .unavailable } ?? .request,
                reason: object["reason"]?.stringValue.flatMap(Reason.init(rawValue:)) ?? .badResponse,
                part: WireProtocol.daemonText(object["part"]),
                message: message
            )
        }
    }
}
