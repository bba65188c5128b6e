import Foundation

/// What the GoTrue double knows: users, sessions, issued tokens and outstanding recovery hashes.
struct GoTrueState {
    struct User {
        var id: String
        var email: String
        var password: String
    }

    struct Session {
        var id: String
        var userID: String
        /// `otp` / `recovery` for a session made from an email link, `password` otherwise.
        var method: String
        var revoked = false
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
    /// token_hash → user id (single use).
    var recoveryHashes: [String: String] = [:]
    /// PKCE flow states of `/recover` calls with a challenge, by the auth code the email's link redirects with.
    var flows: [String: Flow] = [:]
    /// Answers forced on the next requests (status, count), whatever they ask.
    var faults: [Int] = []

    struct Flow {
        var userID: String
        var challenge: String
        var created: Int
    }
    var counter = 0

    mutating func next(_ prefix: String) -> String {
        counter += 1
        return prefix + String(counter) + "-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }
}
