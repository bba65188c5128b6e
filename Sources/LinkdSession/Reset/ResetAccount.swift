import LinkdFormats

/// Whose password a reset sets, as the backend named it: the whole address for the question that asks for the
/// password (a look-alike account is what a mailed attack would use, and a masked address hides it), the masked one
/// for logs and notifications.
package struct ResetAccount: Sendable, Equatable {
    /// The address the backend returned for the session (`GET /user`); `nil` when it names none (App Services).
    package var email: String?
    /// The app the link belongs to.
    package var app: String

    /// The account `email` (empty: none) of `app`.
    package init(email: String?, app: String) {
        self.email = email.flatMap { $0.isEmpty ? nil : $0 }
        self.app = app
    }

    /// What the password question says: `New password for ada@example.com (APP)`, with the address whole and
    /// letters outside ASCII spelled out; `the account this link was sent to` when the backend names no account.
    /// Format controls are stripped and controls escaped; markup is escaped where a dialog shows it.
    package var prompt: String {
        guard let email else { return "New password for the account this link was sent to (\(shownApp))" }
        let foreign = email.unicodeScalars.filter { !$0.isASCII && $0.properties.generalCategory != .format }
        let spelled =
            foreign.isEmpty
            ? ""
            : " — it has letters outside ASCII: "
                + foreign.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
        return "New password for \(DisplayText.sanitize(email))\(spelled) (\(shownApp))"
    }

    /// For logs, notifications and the report: `a***@example.com`, or `your APP account`.
    package var masked: String {
        email.map { DisplayText.sanitize(JWTClaims.mask($0)) } ?? "your \(shownApp) account"
    }

    private var shownApp: String { DisplayText.sanitize(app) }
}
