import Foundation

extension GoTrueService {
    /// `POST /otp` (A.11, GoTrue's `internal/api/otp.go` and `magic_link.go`): 200 `{}`; for a confirmed user and a
    /// challenge, a flow state of method `magiclink` whose code the email's link leads to (`redirect_to?code=…`, as
    /// `GET /verify` would redirect). With `create_user: false`, an address with no account is `422 otp_disabled`.
    ///
    /// Not modelled: the phone variant (`phone_provider_disabled`), captcha, rate limits, and what GoTrue mails
    /// without a challenge (an implicit link) or to a new user with `create_user` true (a signup confirmation):
    /// there the double answers 200 and mails nothing, since linkd always asks with a challenge and for an existing
    /// account.
    func otp(_ request: ReceivedRequest, _ state: inout GoTrueState) throws -> DoubleResponse {
        let body = request.jsonBody ?? [:]
        if body["phone"] != nil {
            throw Failure(status: 422, code: "phone_provider_disabled", message: "Unsupported phone provider")
        }
        guard let email = body["email"] as? String, !email.isEmpty else {
            throw Failure(status: 400, code: "validation_failed", message: "One of email or phone must be set")
        }
        if let create = body["create_user"], !(create is Bool) {
            throw Failure(status: 400, code: "bad_json", message: "Could not parse request body as JSON")
        }
        let challenge = try Self.challenge(in: body)
        guard let user = state.users.values.first(where: { $0.email == email }) else {
            if body["create_user"] as? Bool == false {
                throw Failure(status: 422, code: "otp_disabled", message: "Signups not allowed for otp")
            }
            return .json(200, [:])
        }
        if let challenge {
            state.counter += 1
            state.flows[UUID().uuidString.lowercased()] = GoTrueState.Flow(
                userID: user.id,
                challenge: challenge,
                created: now * 1000 + state.counter,
                method: "magiclink",
                redirectTo: request.query["redirect_to"]
            )
        }
        return .json(200, [:])
    }

    /// The S256 challenge of a request's body (`code_challenge` with `code_challenge_method`), `nil` when it has
    /// none; both or neither, 43 to 128 characters (A.9's PKCE messages).
    static func challenge(in body: [String: Any]) throws -> String? {
        let challenge = body["code_challenge"] as? String
        let method = body["code_challenge_method"] as? String
        if (challenge == nil) != (method == nil) {
            throw Failure(
                status: 400,
                code: "validation_failed",
                message: "PKCE flow requires code_challenge_method and code_challenge"
            )
        }
        if let challenge, !(43...128).contains(challenge.count) {
            throw Failure(
                status: 400,
                code: "validation_failed",
                message: "code challenge has to be between 43 and 128 characters"
            )
        }
        return challenge
    }
}
