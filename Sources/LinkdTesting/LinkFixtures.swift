public import Foundation

/// Builders that mint realistic auth links, the way the backends write them, for app developers' tests.
///
/// Tokens are random unless given; JWTs carry the claims you choose and a placeholder signature (linkd never
/// verifies signatures; the backend does).
public enum LinkFixtures {
    /// A random base64url string of `count` characters.
    public static func randomToken(_ count: Int = 43) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        return String((0..<count).map { _ in alphabet.randomElement() ?? "A" })
    }

    /// A JWT with the given claims, an HS256 header and a placeholder signature.
    ///
    /// - Parameters:
    ///   - expiresAt: `exp`, in seconds since 1970 (an hour from now by default).
    ///   - methods: the `amr` methods, e.g. `["recovery"]` for a password-recovery session.
    public static func jwt(
        subject: String = UUID().uuidString.lowercased(),
        email: String? = "user@example.com",
        expiresAt: Date = Date().addingTimeInterval(3_600),
        issuedAt: Date = Date(),
        sessionID: String = UUID().uuidString.lowercased(),
        methods: [String] = ["recovery"],
        issuer: String = "https://abcd.supabase.co/auth/v1",
        audience: String = "authenticated"
    ) -> String {
        var claims: [String: Any] = [
            "sub": subject, "exp": Int64(expiresAt.timeIntervalSince1970), "iat": Int64(issuedAt.timeIntervalSince1970),
            "session_id": sessionID, "aud": audience, "iss": issuer, "role": "authenticated", "aal": "aal1",
            "amr": methods.map { ["method": $0, "timestamp": Int64(issuedAt.timeIntervalSince1970)] },
        ]
        if let email { claims["email"] = email }
        let header = #"{"alg":"HS256","typ":"JWT"}"#
        let payload = (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])) ?? Data()
        return base64URL(Data(header.utf8)) + "." + base64URL(payload) + "." + base64URL(Data("linkd-test".utf8))
    }

    /// The Supabase implicit-flow redirect GoTrue's `/verify` sends (`#access_token=…&…&type=recovery`), with its
    /// keys sorted as Go's `url.Values.Encode` sorts them and the `sb` marker.
    public static func supabaseSession(
        redirectTo: String = "myapp://reset",
        accessToken: String = jwt(),
        refreshToken: String = randomToken(52),
        expiresIn: Int = 3_600,
        expiresAt: Date = Date().addingTimeInterval(3_600),
        type: String = "recovery",
        marker: Bool = true
    ) -> String {
        var pairs = [
            ("access_token", accessToken), ("expires_at", String(Int64(expiresAt.timeIntervalSince1970))),
            ("expires_in", String(expiresIn)), ("refresh_token", refreshToken),
        ]
        if marker { pairs.append(("sb", "")) }
        pairs += [("token_type", "bearer"), ("type", type)]
        return redirectTo + "#" + formEncode(pairs)
    }

    /// A Supabase PKCE redirect (`?code=<uuid>`), with GoTrue's re-sorted query.
    public static func supabasePKCE(
        redirectTo: String = "myapp://reset",
        code: String = UUID().uuidString.lowercased(),
        next: String? = nil
    ) -> String {
        var pairs = [("code", code)]
        if let next { pairs.append(("next", next)) }
        return redirectTo + "?" + formEncode(pairs)
    }

    /// The token-hash link of Supabase's SSR email template (`{{ .SiteURL }}/auth/confirm?token_hash=…&type=…`).
    public static func supabaseTokenHash(
        siteURL: String = "https://app.example.com",
        tokenHash: String = "pkce_" + String(randomToken(56).lowercased().map { $0.isLetter ? "a" : $0 }),
        type: String = "recovery",
        next: String? = "/account/update-password"
    ) -> String {
        siteURL + "/auth/confirm?token_hash=\(tokenHash)&type=\(type)" + (next.map { "&next=\($0)" } ?? "")
    }

    /// The hosted verify link an email carries (`…/auth/v1/verify?token=…&type=…&redirect_to=…`), with
    /// `redirect_to` raw as GoTrue writes it when it holds no `&`, `=` or `#`.
    public static func supabaseVerify(
        projectURL: String = "https://abcd.supabase.co",
        token: String = String(randomToken(56).lowercased().map { $0.isLetter ? "f" : $0 }),
        type: String = "recovery",
        redirectTo: String = "myapp://reset"
    ) -> String {
        let redirect = redirectTo.contains(where: { "&=#".contains($0) }) ? queryEscape(redirectTo) : redirectTo
        return projectURL + "/auth/v1/verify?token=\(token)&type=\(type)&redirect_to=\(redirect)"
    }

    /// A Supabase error redirect (`#error=access_denied&error_code=otp_expired&error_description=…&sb=`); with
    /// `pkce`, the error is in the query too, as GoTrue writes it in that flow.
    public static func supabaseError(
        redirectTo: String = "myapp://reset",
        error: String = "access_denied",
        code: String = "otp_expired",
        description: String = "Email link is invalid or has expired",
        pkce: Bool = false
    ) -> String {
        let encoded = formEncode([("error", error), ("error_code", code), ("error_description", description)])
        return redirectTo + (pkce ? "?" + encoded : "") + "#" + encoded + "&sb="
    }

    /// An App Services reset link: the configured reset URL with `token` and `tokenId`.
    public static func appServicesReset(
        url: String = "https://app.example.com/reset",
        token: String = String(randomToken(128).lowercased().map { $0.isLetter ? "c" : $0 }),
        tokenID: String = "65f0c2a1d3e4b5a6c7d8e9f0"
    ) -> String {
        url + "?" + formEncode([("token", token), ("tokenId", tokenID)])
    }

    /// An App Services confirmation link.
    public static func appServicesConfirm(
        url: String = "https://app.example.com/confirmEmail",
        token: String = String(randomToken(128).lowercased().map { $0.isLetter ? "c" : $0 }),
        tokenID: String = "65f0c2a1d3e4b5a6c7d8e9f0"
    ) -> String {
        appServicesReset(url: url, token: token, tokenID: tokenID)
    }

    /// A Firebase email action link.
    public static func firebaseAction(
        handler: String = "https://example.firebaseapp.com/__/auth/action",
        mode: String = "resetPassword",
        oobCode: String = randomToken(54),
        apiKey: String = "AIzaSyD" + randomToken(32),
        continueURL: String? = nil,
        lang: String? = nil
    ) -> String {
        var pairs = [("mode", mode), ("oobCode", oobCode), ("apiKey", apiKey)]
        if let continueURL { pairs.append(("continueUrl", continueURL)) }
        if let lang { pairs.append(("lang", lang)) }
        return handler + "?" + formEncode(pairs)
    }

    /// `name=value` pairs joined with `&`, encoded as Go's `QueryEscape` does (space as `+`).
    public static func formEncode(_ pairs: [(String, String)]) -> String {
        pairs.map { queryEscape($0.0) + "=" + queryEscape($0.1) }.joined(separator: "&")
    }

    private static func queryEscape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~ ")
        let escaped = text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
        return escaped.replacingOccurrences(of: " ", with: "+")
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
