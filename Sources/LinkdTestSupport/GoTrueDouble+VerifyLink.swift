import Foundation

extension GoTrueService {
    /// `GET /auth/v1/verify?token=<hash>&type=<t>&redirect_to=<url>`: the link in the email, which a browser opens.
    ///
    /// Followed from GoTrue's `internal/api/verify.go` (`verifyGet`, `prepErrorRedirectURL`): a missing `type` or
    /// `token` is a JSON 400; anything later is a `303 See Other` — on success to
    /// `<redirect_to>#access_token=…&expires_at=…&expires_in=…&refresh_token=…&sb=&token_type=bearer&type=<t>` (keys
    /// sorted, the fragment string-concatenated), with a session whose amr is `otp`; on failure to
    /// `<redirect_to>#error=access_denied&error_code=otp_expired&error_description=…&sb=`. This double handles
    /// `recovery` and `magiclink` hashes (no PKCE). A `redirect_to` the project does not allow, or none, leads to its
    /// site URL (``GoTrueDouble/allowRedirects(only:siteURL:)``), as `utilities.GetReferrer` decides.
    func verifyLink(_ request: ReceivedRequest, _ state: inout GoTrueState) -> DoubleResponse {
        guard let type = request.query["type"], !type.isEmpty else {
            return Self.render(
                Failure(status: 400, code: "validation_failed", message: "Verify requires a verification type"),
                current: true
            )
        }
        guard let hash = request.query["token"], !hash.isEmpty else {
            return Self.render(
                Failure(status: 400, code: "validation_failed", message: "Verify requires a token or a token hash"),
                current: true
            )
        }
        let asked = request.query["redirect_to"].flatMap { state.allowedRedirects?.contains($0) == false ? nil : $0 }
        let redirect = asked ?? state.siteURL
        guard type == "recovery" || type == "magiclink", let userID = state.recoveryHashes.removeValue(forKey: hash),
            let owner = state.users[userID]
        else {
            let location =
                redirect
                + "#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired&sb="
            return DoubleResponse(status: 303, headers: [("Location", location)], body: Data())
        }
        let tokens = issue(&state, user: owner, method: "otp")
        let fragment = [
            ("access_token", tokens.access), ("expires_at", String(tokens.expiresAt)),
            ("expires_in", String(tokens.expiresAt - now)), ("refresh_token", tokens.refresh), ("sb", ""),
            ("token_type", "bearer"), ("type", type),
        ].map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        return DoubleResponse(status: 303, headers: [("Location", redirect + "#" + fragment)], body: Data())
    }
}
