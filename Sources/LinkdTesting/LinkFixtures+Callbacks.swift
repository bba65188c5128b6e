import Foundation

extension LinkFixtures {
    /// A Sign in with Apple callback as an app's Return URL page hands it on (`#code=…&id_token=…&state=…`): what
    /// Apple posts to the page (`code`, `id_token`, `state`, and on the first sign-in `user`), in the fragment.
    ///
    /// - Parameters:
    ///   - idToken: Apple's id token, a JWT of the claims the test chooses (`jwt` with Apple's issuer); `nil` for a
    ///     callback without one.
    ///   - firstName, lastName: the name of `user`, which Apple sends on the first authorization only; with neither,
    ///     no `user`.
    public static func appleCallback(
        redirectTo: String = "myapp://apple",
        code: String = "c" + randomToken(20).lowercased() + ".0.abcd." + randomToken(22),
        idToken: String? = jwt(issuer: "https://appleid.apple.com", audience: "com.example.app.web"),
        state: String = randomToken(43),
        email: String = "user@example.com",
        firstName: String? = nil,
        lastName: String? = nil
    ) -> String {
        var pairs = [("code", code)]
        if let idToken { pairs.append(("id_token", idToken)) }
        pairs.append(("state", state))
        if firstName != nil || lastName != nil {
            var name: [String: String] = [:]
            name["firstName"] = firstName
            name["lastName"] = lastName
            let user: [String: Any] = ["name": name, "email": email]
            let json = (try? JSONSerialization.data(withJSONObject: user, options: [.sortedKeys])) ?? Data()
            pairs.append(("user", String(decoding: json, as: UTF8.self)))
        }
        return redirectTo + "#" + formEncode(pairs)
    }

    /// Sign in with Apple's answer when the person pressed Cancel (`#error=user_cancelled_authorize&state=…`), as the
    /// Return URL page hands it on.
    public static func appleCancel(redirectTo: String = "myapp://apple", state: String = randomToken(43)) -> String {
        redirectTo + "#" + formEncode([("error", "user_cancelled_authorize"), ("state", state)])
    }

    /// An OAuth 2.0 authorization-code callback (RFC 6749 §4.1.2: `?code=…&state=…`).
    public static func oauthCallback(
        redirectTo: String = "https://client.example.com/cb",
        code: String = randomToken(32),
        state: String = randomToken(22)
    ) -> String {
        redirectTo + "?" + formEncode([("code", code), ("state", state)])
    }

    /// An OAuth 2.0 error redirect (RFC 6749 §4.1.2.1: `?error=access_denied&state=…`, a description when given).
    public static func oauthError(
        redirectTo: String = "https://client.example.com/cb",
        error: String = "access_denied",
        description: String? = nil,
        state: String? = randomToken(22)
    ) -> String {
        var pairs = [("error", error)]
        if let description { pairs.append(("error_description", description)) }
        if let state { pairs.append(("state", state)) }
        return redirectTo + "?" + formEncode(pairs)
    }
}
