package import LinkdFormats

/// Reads a GoTrue (Supabase Auth) error response: the current shape `{"code": "…", "message": "…"}` (request header
/// `X-Supabase-Api-Version: 2024-01-01`), the legacy `{"code": 422, "error_code": "…", "msg": "…"}`, the OAuth
/// `{"error": "…", "error_description": "…"}`, a gateway's `{"message": "…"}`, or anything else.
package enum GoTrueErrorBody {
    /// Codes that mean the link, or the session made from it, is gone.
    static let linkGone: Set<String> = [
        "otp_expired", "session_not_found", "session_expired", "bad_jwt", "refresh_token_not_found",
        "refresh_token_already_used", "flow_state_not_found", "flow_state_expired",
    ]
    static let passwordCodes: Set<String> = ["weak_password", "same_password"]
    /// Codes of a refused MFA code: a wrong one, or a challenge that expired while the person typed.
    static let codeRejectedCodes: Set<String> = ["mfa_verification_failed", "mfa_challenge_expired"]
    static let rateLimitCodes: Set<String> = ["over_request_rate_limit", "over_email_send_rate_limit"]

    /// The error a response with `status`, the `x-sb-error-code` header value (if any) and `body` stands for; the
    /// backend's text shows none of `secrets` (what the request carried).
    package static func decode(
        status: Int,
        errorCodeHeader: String?,
        body: some Collection<UInt8>,
        redacting secrets: [Secret] = []
    ) -> BackendError {
        let object = (try? JSONValue.parse(body)).flatMap { $0.objectMembers == nil ? nil : $0 }
        var code = object?["error_code"]?.stringValue ?? object?["code"]?.stringValue ?? object?["error"]?.stringValue
        if code == nil || code?.isEmpty == true { code = errorCodeHeader }
        let message =
            object?["message"]?.stringValue ?? object?["msg"]?.stringValue
            ?? object?["error_description"]?.stringValue
            ?? ResponseText.fallback(status: status, body: body)
        let reasons = object?["weak_password"]?["reasons"]?.arrayElements?.compactMap(\.stringValue) ?? []
        let found = code ?? ""
        return BackendError(
            kind: kind(code: found, status: status, message: message),
            status: status,
            code: ResponseText.clean(found, limit: 64, redacting: secrets),
            message: ResponseText.clean(message, limit: 300, redacting: secrets),
            reasons: reasons.map { ResponseText.clean($0, limit: 32, redacting: secrets) }
        )
    }

    private static func kind(code: String, status: Int, message: String) -> BackendError.Kind {
        if linkGone.contains(code) { return .linkExpiredOrUsed }
        if passwordCodes.contains(code) { return .passwordRejected }
        if codeRejectedCodes.contains(code) { return .codeRejected }
        if code == "insufficient_aal" { return .secondFactorRequired }
        // bcrypt's limit comes back as a generic validation failure; its message is the only sign.
        if code == "validation_failed" && message.hasPrefix("Password ") { return .passwordRejected }
        if rateLimitCodes.contains(code) || status == 429 { return .rateLimited }
        if status >= 500 { return .temporary }
        return .refused
    }
}
