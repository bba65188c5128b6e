import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdRouting

/// How `linkd route` prints a resolution or an error: one JSON object per line, or text.
struct RouteOutput {
    var reveal: Bool
    /// `no_route` with the built-in fallback, `no_app` with `--config`.
    var unmatchedReason: String
    var now = Date()

    /// `input` as `linkd route` and `linkd open --json` print it: the values of its route's secret fields (a path
    /// capture among them, which only the route knows to be a secret) and whatever ``LinkRedactor`` finds removed.
    static func redacted(_ input: String, _ resolution: Resolution?) -> String {
        LinkRedactor.redact(input, values: resolution?.route.fields.compactMap(\.value.secret) ?? [])
    }

    private func shownInput(_ input: String, _ resolution: Resolution? = nil) -> String {
        reveal ? input : Self.redacted(input, resolution)
    }

    private func value(_ field: FieldValue) -> JSONValue {
        switch field {
        case .number(let number): .number(number)
        case .text(let text): .string(text)
        case .secret(let secret): .string(reveal ? secret.revealed() : Secret.redacted)
        }
    }

    /// The resolution as one JSON line; `wrapper`, the mail scanner's wrapper the link came in, as `"wrapper"`.
    func json(_ resolution: Resolution, input: String, wrapper: LinkWrapper? = nil) -> String {
        var members: [(String, JSONValue)] = [("input", .string(shownInput(input, resolution)))]
        if let wrapper { members.append(("wrapper", .string(wrapper.rawValue))) }
        members += [
            ("route", .string(resolution.route.id)), ("app", resolution.app.map { .string($0.app) } ?? .null),
            ("action", resolution.link.map { $0.action.settings.json } ?? .null),
            ("fields", .object(resolution.route.fields.map { ($0.name, value($0.value)) })),
        ]
        return JSONValue.object(members).serialized + "\n"
    }

    func json(_ error: RouteError, input: String) -> String {
        var object = error.json
        if case .unmatched(let explanation) = error {
            object = .object([
                ("kind", .string("unmatched")), ("reason", .string(unmatchedReason)), ("part", .string("input")),
                ("message", .string(explanation.description)),
            ])
        }
        return JSONValue.object([("input", .string(shownInput(input))), ("route", .null), ("error", object)])
            .serialized + "\n"
    }

    /// The resolution as text; `wrapper`, the mail scanner's wrapper the link came in, on a line of its own.
    func text(_ resolution: Resolution, input: String, wrapper: LinkWrapper? = nil) -> String {
        var text = DisplayText.sanitize(shownInput(input, resolution)) + "\n"
        if let wrapper { text += "  in:     \(wrapper.rawValue): the link inside is routed, the wrapper never asked\n" }
        text += "  route:  \(DisplayText.sanitize(resolution.route.id))\n"
        text += "  app:    \(resolution.app.map { DisplayText.sanitize($0.app) } ?? "(built-in formats)")\n"
        text += "  action: \(resolution.link.map { $0.action.settings.summary } ?? "none (no app claims the link)")\n"
        return text + fieldLines(resolution)
    }

    /// The emailed link of an app's own backend as text: the route that reads it (when one does), the app, and the
    /// action of the link it leads to, which runs.
    func text(_ emailed: EmailedRoute, routed: Resolution?, input: String, wrapper: LinkWrapper? = nil) -> String {
        var text = DisplayText.sanitize(shownInput(input, routed)) + "\n"
        if let wrapper { text += "  in:     \(wrapper.rawValue): the link inside is routed, the wrapper never asked\n" }
        if let routed { text += "  route:  \(DisplayText.sanitize(routed.route.id))\n" }
        text += "  app:    \(DisplayText.sanitize(emailed.app.app))\n"
        let action = emailed.target.action.settings.summary
        let backend = DisplayText.sanitize(emailed.backendHost)
        text +=
            "  action: \(action), on the link its backend \(backend) leads to (an emailed link of the app's backend)\n"
        return text + (routed.map(fieldLines) ?? "")
    }

    /// The emailed link of an app's own backend as one JSON line: as a resolution, with its app, the action of the
    /// link it leads to and `"emailedBy"`, the backend's host.
    func json(_ emailed: EmailedRoute, routed: Resolution?, input: String, wrapper: LinkWrapper? = nil) -> String {
        var members: [(String, JSONValue)] = [("input", .string(shownInput(input, routed)))]
        if let wrapper { members.append(("wrapper", .string(wrapper.rawValue))) }
        members += [
            ("route", routed.map { .string($0.route.id) } ?? .null), ("app", .string(emailed.app.app)),
            ("action", emailed.target.action.settings.json),
            ("fields", .object((routed?.route.fields).map { $0.map { ($0.name, value($0.value)) } } ?? [])),
            ("emailedBy", .string(emailed.backendHost)),
        ]
        return JSONValue.object(members).serialized + "\n"
    }

    /// The route's fields, and its token's owner and expiry, one per line.
    private func fieldLines(_ resolution: Resolution) -> String {
        var text = ""
        let width = (resolution.route.fields.map(\.name.count).max() ?? 0) + 2
        if !resolution.route.fields.names.isEmpty { text += "  fields:\n" }
        for field in resolution.route.fields {
            let shown = reveal ? field.value.revealed() : field.value.description
            text += "    " + field.name + String(repeating: " ", count: width - field.name.count)
            text += DisplayText.sanitize(shown) + "\n"
        }
        if let auth = resolution.route.auth, let claims = auth.claims {
            text += "  token:  " + tokenLine(claims, expiredNote: Self.expiredNote(auth)) + "\n"
        }
        return text
    }

    /// What an expired token of `auth`'s format means: a Supabase access token is renewed with the link's refresh
    /// token; an Apple id token is renewed by no one.
    static func expiredNote(_ auth: AuthRoute) -> String {
        switch auth {
        case .supabaseRecovery, .supabaseSession: "the session layer renews it with the link's refresh token"
        case .appleCallback: "an id token is not renewed: the backend refuses it, and the sign-in has to start again"
        case .firebaseAction, .supabaseError, .oauthError, .oauthCallback, .supabasePKCE, .supabaseOTP,
            .appServicesConfirm, .appServicesReset:
            "linkd does not renew it"
        }
    }

    /// Whose token it is and when it expires (and, expired, `expiredNote`): information, never a refusal.
    private func tokenLine(_ claims: JWTClaims, expiredNote: String) -> String {
        var parts: [String] = []
        if let email = claims.maskedEmail { parts.append("for " + DisplayText.sanitize(email)) }
        if let expiresAt = claims.expiresAt {
            let date = Date(timeIntervalSince1970: TimeInterval(expiresAt))
            let span = Self.span(abs(date.timeIntervalSince(now)))
            if claims.isExpired(at: now) {
                parts.append(
                    "expired \(date.formatted(Date.ISO8601FormatStyle())) (\(span) ago; \(expiredNote))"
                )
            } else {
                parts.append("expires \(date.formatted(Date.ISO8601FormatStyle())) (in \(span))")
            }
        }
        return parts.isEmpty ? "no expiry or email in the token" : parts.joined(separator: ", ")
    }

    /// A duration in the largest unit that keeps it readable: `59 min`, `5 h`, `12 days`.
    static func span(_ seconds: TimeInterval) -> String {
        let minutes = Int((seconds / 60).rounded())
        if minutes < 120 { return "\(minutes) min" }
        let hours = Int((seconds / 3_600).rounded())
        return hours < 48 ? "\(hours) h" : "\(Int((seconds / 86_400).rounded())) days"
    }
}
