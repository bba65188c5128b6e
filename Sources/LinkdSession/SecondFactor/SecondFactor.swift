package import LinkdFormats

/// A verified second factor of an account (Supabase MFA): what the person proves with a code before the backend lets
/// a session set a new password (`insufficient_aal` otherwise).
package struct SecondFactor: Sendable, Equatable {
    /// The factors linkd can prove with a typed code.
    package enum Kind: String, Sendable {
        /// An authenticator app's 6-digit code (RFC 6238).
        case totp
        /// A code the backend texts to the phone when the factor is challenged.
        case phone
    }

    /// The backend's id of the factor (a UUID at GoTrue), checked to be safe in a request's path.
    package var id: String
    package var kind: Kind
    /// The name the person gave the factor when they enrolled it, as the backend returned it.
    package var friendlyName: String?

    /// A factor of `kind` with the backend's `id`; `nil` when the id is not 1 to 64 hex digits and dashes.
    package init?(id: String, kind: Kind, friendlyName: String?) {
        let safe = id.utf8.allSatisfy { $0 == UInt8(ascii: "-") || Hex.isDigit($0) }
        guard (1...64).contains(id.utf8.count), safe else { return nil }
        self.id = id
        self.kind = kind
        self.friendlyName = friendlyName.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// What the question for its code says: `Authenticator code for ada@example.com (APP), from "Phone"`, for the
    /// account `email` (`nil`: the backend names none) of `app`; the names the backend holds are sanitised.
    package func prompt(email: String?, app: String) -> String {
        let whose = email.flatMap { $0.isEmpty ? nil : DisplayText.sanitize($0) } ?? "the account"
        let named = friendlyName.map { ", from \"\(DisplayText.sanitize($0))\"" } ?? ""
        switch kind {
        case .totp: return "Authenticator code for \(whose) (\(DisplayText.sanitize(app)))\(named)"
        case .phone: return "Code texted for \(whose) (\(DisplayText.sanitize(app)))\(named)"
        }
    }
}

/// The verified second factors of a GoTrue user (`factors`, GoTrue's `models.Factor`), split into those linkd can
/// prove with a code and those it cannot (security keys: `webauthn`).
package struct SecondFactors: Sendable, Equatable {
    /// The factors linkd can prove, authenticator apps first.
    package var usable: [SecondFactor] = []
    /// The types of the verified factors linkd cannot prove, as the backend names them.
    package var unusable: [String] = []

    /// No factors.
    package init() {}

    /// Reads a user's `factors`; a factor that is not `verified` does not count (GoTrue asks for none of those).
    package init(_ factors: JSONValue?) {
        for factor in factors?.arrayElements ?? [] where factor["status"]?.stringValue == "verified" {
            let type = factor["factor_type"]?.stringValue ?? ""
            if let kind = SecondFactor.Kind(rawValue: type), let id = factor["id"]?.stringValue,
                let found = SecondFactor(id: id, kind: kind, friendlyName: factor["friendly_name"]?.stringValue)
            {
                usable.append(found)
            } else {
                unusable.append(ResponseText.clean(type.isEmpty ? "unnamed" : type, limit: 32))
            }
        }
        usable.sort { $0.kind == .totp && $1.kind != .totp }
    }

    /// Whether the account has any verified second factor.
    package var isEmpty: Bool { usable.isEmpty && unusable.isEmpty }

    /// The factor to prove: the first authenticator app, else the first phone.
    ///
    /// - Throws: ``SessionError/noUsableSecondFactor(types:)`` when every verified factor is one linkd cannot prove.
    package func chosen() throws(SessionError) -> SecondFactor? {
        if let first = usable.first { return first }
        guard unusable.isEmpty else { throw .noUsableSecondFactor(types: unusable) }
        return nil
    }
}
