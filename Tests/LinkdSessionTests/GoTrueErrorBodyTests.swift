import LinkdSession
import Testing

/// GoTrue's error responses as GoTrue's source writes them (`internal/api/errors.go`).
@Suite struct GoTrueErrorBodyTests {
    private func decode(_ status: Int, _ body: String, header: String? = nil) -> BackendError {
        GoTrueErrorBody.decode(status: status, errorCodeHeader: header, body: Array(body.utf8))
    }

    @Test func readsTheCurrentShape() {
        let error = decode(
            422,
            #"{"code":"same_password","message":"New password should be different from the old password."}"#,
            header: "same_password"
        )
        #expect(
            error
                == BackendError(
                    kind: .passwordRejected,
                    status: 422,
                    code: "same_password",
                    message: "New password should be different from the old password."
                )
        )
    }

    @Test func readsTheLegacyShapeToTheSameError() {
        let legacy = decode(
            422,
            #"{"code":422,"error_code":"same_password","msg":"New password should be different from the old password."}"#
        )
        let current = decode(
            422,
            #"{"code":"same_password","message":"New password should be different from the old password."}"#
        )
        #expect(legacy == current)
    }

    @Test func keepsTheWeakPasswordReasonsInBothShapes() {
        let current = decode(
            422,
            #"{"code":"weak_password","message":"Password should be at least 6 characters.","weak_password":{"reasons":["length"]}}"#
        )
        let legacy = decode(
            422,
            #"{"code":422,"error_code":"weak_password","msg":"Password should be at least 6 characters.","weak_password":{"reasons":["length"]}}"#
        )
        #expect(current.kind == .passwordRejected)
        #expect(current.reasons == ["length"])
        #expect(current == legacy)
        #expect(
            current.description
                == "Password should be at least 6 characters. (reasons: length) [weak_password, HTTP 422]"
        )
    }

    @Test(arguments: [
        (403, "otp_expired", "Token has expired or is invalid"),
        (
            403, "bad_jwt",
            "invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired"
        ),
        (400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found"),
        (400, "refresh_token_already_used", "Invalid Refresh Token: Already Used"),
        (400, "session_not_found", "Invalid Refresh Token: No Valid Session Found"),
        (400, "session_expired", "Invalid Refresh Token: Session Expired"),
        (404, "flow_state_not_found", "invalid flow state, no valid flow state found"),
        (422, "flow_state_expired", "invalid flow state, flow state has expired"),
    ])
    func linksTheBackendNoLongerHonoursAreExpiredOrUsed(status: Int, code: String, message: String) {
        let error = decode(status, #"{"code":"\#(code)","message":"\#(message)"}"#)
        #expect(error.kind == .linkExpiredOrUsed)
        #expect(error.code == code)
        #expect(error.message == message)
    }

    @Test func theBcryptLimitIsAPasswordRefusalButOtherValidationFailuresAreNot() {
        let long = decode(
            400,
            #"{"code":"validation_failed","message":"Password cannot be longer than 72 characters"}"#
        )
        #expect(long.kind == .passwordRejected)
        let scope = decode(400, #"{"code":"validation_failed","message":"Unsupported logout scope \"x\""}"#)
        #expect(scope.kind == .refused)
    }

    @Test func rateLimitsAndServerErrorsAreTemporary() {
        #expect(
            decode(429, #"{"code":"over_request_rate_limit","message":"Request rate limit reached"}"#).kind
                == .rateLimited
        )
        #expect(decode(429, #"{"code":"over_email_send_rate_limit","message":"x"}"#).kind == .rateLimited)
        let legacy500 = decode(
            500,
            #"{"code":500,"error_code":"unexpected_failure","msg":"Internal error","error_id":"e1"}"#
        )
        #expect(legacy500.kind == .temporary && legacy500.code == "unexpected_failure")
    }

    @Test func readsOAuthErrorsAndTheGatewaysMessage() {
        let oauth = decode(400, #"{"error":"invalid_grant","error_description":"Invalid Refresh Token"}"#)
        #expect(oauth.code == "invalid_grant" && oauth.message == "Invalid Refresh Token" && oauth.kind == .refused)
        let gateway = decode(
            401,
            #"{"message":"No API key found in request","hint":"No `apikey` request header or url param was found."}"#
        )
        #expect(gateway.code.isEmpty && gateway.message == "No API key found in request")
    }

    @Test func fallsBackToTheErrorCodeHeader() {
        let error = decode(
            422,
            #"{"message":"New password should be different from the old password."}"#,
            header: "same_password"
        )
        #expect(error.code == "same_password" && error.kind == .passwordRejected)
    }

    @Test func aBodyThatIsNotJSONIsNeverShown() {
        let body = "<html>PUT /user {\"password\":\"hunter2-secret\"}</html>"
        let echoed = decode(502, body)
        #expect(echoed.kind == .temporary)
        #expect(
            echoed.message == "the server answered HTTP 502 with a body linkd cannot read (\(body.utf8.count) bytes)"
        )
        #expect(!echoed.description.contains("hunter2"))
        #expect(decode(503, "").message == "the server answered HTTP 503 with no message")
        #expect(decode(400, "[1,2]").message.hasPrefix("the server answered HTTP 400 with a body"))
    }

    @Test func backendTextIsSanitisedAndBounded() {
        let error = decode(
            400,
            #"{"code":"x\u0007","message":"evil \u202e txt \u001b[31m \#(String(repeating: "a", count: 400))"}"#
        )
        #expect(!error.message.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x1B })
        #expect(error.message.count == 300 && error.message.hasSuffix("…"))
        #expect(!error.code.unicodeScalars.contains { $0.value == 0x07 })
    }
}
