import Foundation

/// What the GoTrue double knows: users, sessions, issued tokens and outstanding recovery hashes.
struct GoTrueState {
    struct User {
        var id: String
        var email: String
        var password: String
        /// How the user signed up (`app_metadata.provider`): `email`, or `apple` for one an Apple id token made.
        var provider = "email"
    }

    struct Session {
        var id: String
        var userID: String
        /// The authentication method its tokens' `amr` names: `otp` for a session from an implicit email link or
        /// `POST /verify`, the flow's method (`recovery`) through PKCE, `password` (or `oauth`, …) for a sign-in.
        var method: String
        var revoked = false
        /// `aal1`, or `aal2` once a second factor was verified for it.
        var aal = "aal1"
    }

    /// An MFA factor (GoTrue's `models.Factor`): a TOTP factor holds the secret its authenticator app has.
    struct Factor {
        var id: String
        var userID: String
        var type: String
        var friendlyName: String
        var verified: Bool
        var secret: [UInt8]
    }

    /// A challenge of a factor (`POST /factors/{id}/challenge`), which one verify uses up.
    struct Challenge {
        var factorID: String
        var created: Int
        var verified = false
    }

    struct AccessToken {
        var sessionID: String
        var expires: Int
    }

    var users: [String: User] = [:]
    var sessions: [String: Session] = [:]
    var accessTokens: [String: AccessToken] = [:]
    /// Refresh token → session id; a used one is kept in `usedRefreshTokens`.
    var refreshTokens: [String: String] = [:]
    var usedRefreshTokens: Set<String> = []
    /// token_hash → user id (single use): recovery and magic-link emails, which share GoTrue's recovery token.
    var recoveryHashes: [String: String] = [:]
    /// User id → the 6-digit code (`{{ .Token }}`) of the user's newest recovery or magic-link email, which shares the
    /// email's recovery token (single use; a new email replaces it).
    var recoveryCodes: [String: String] = [:]
    /// token_hash → user id (single use): signup and invite confirmation emails.
    var confirmationHashes: [String: String] = [:]
    /// What the simulated OAuth providers sign their person in as: provider (`github`) → email.
    var providerAccounts: [String: String] = [:]
    /// PKCE flow states of `/recover` calls with a challenge, by the auth code the email's link redirects with.
    var flows: [String: Flow] = [:]
    /// Sign in with Apple: the client IDs whose id tokens it accepts (none: Apple is disabled), the key it trusts,
    /// and Apple identities (`sub`) → user id.
    var appleClientIDs: [String] = []
    var appleKeys: RSAKeyFiles? = nil
    var appleIdentities: [String: String] = [:]
    /// MFA factors by id, and their challenges by id.
    var factors: [String: Factor] = [:]
    var challenges: [String: Challenge] = [:]
    /// Answers forced on the next requests (status, count), whatever they ask.
    var faults: [Int] = []
    /// Whether error messages quote the request (its body and Authorization), as a careless gateway's do.
    var quotesRequests = false
    /// The project's `URI_ALLOW_LIST`, when one is set: a `redirect_to` not in it is replaced by ``siteURL``, as
    /// GoTrue's `utilities.GetReferrer` does. `nil`: every `redirect_to` is taken as given.
    var allowedRedirects: [String]?
    /// The project's `SITE_URL`.
    var siteURL = "http://localhost:3000"

    struct Flow {
        var userID: String
        var challenge: String
        var created: Int
        /// The flow's authentication method, which the exchange's session gets as its `amr` (`recovery`).
        var method: String
        /// Where the email's link leads once GoTrue has verified it (`redirect_to`), when the request said.
        var redirectTo: String? = nil
    }
    var counter = 0

    mutating func next(_ prefix: String) -> String {
        counter += 1
        return prefix + String(counter) + "-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }
}
