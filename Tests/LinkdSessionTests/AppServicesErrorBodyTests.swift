import LinkdSession
import Testing

/// App Services error responses as realm-core reads them (backend-contract.md B.0–B.3).
@Suite struct AppServicesErrorBodyTests {
    private func decode(_ status: Int, _ body: String, contentType: String? = "application/json") -> BackendError {
        AppServicesErrorBody.decode(status: status, contentType: contentType, body: Array(body.utf8))
    }

    @Test func anUsedOrExpiredTokenIsExpiredOrUsedAndTheConsoleLinkIsDropped() {
        let error = decode(
            400,
            #"{"error":"invalid token data","error_code":"UserpassTokenInvalid","link":"https://services.cloud.mongodb.com/groups/g1/apps/a1/logs?co_id=c1"}"#
        )
        #expect(
            error
                == BackendError(
                    kind: .linkExpiredOrUsed,
                    status: 400,
                    code: "UserpassTokenInvalid",
                    message: "invalid token data"
                )
        )
        #expect(!error.description.contains("groups/g1"))
    }

    @Test(arguments: [
        (400, "InvalidPassword", BackendError.Kind.passwordRejected),
        (404, "UserNotFound", .refused),
        (400, "BadRequest", .refused),
        (503, "MaintenanceInProgress", .temporary),
        (500, "FunctionExecutionError", .temporary),
        (401, "InvalidSession", .linkExpiredOrUsed),
    ])
    func sortsTheErrorCodes(status: Int, code: String, kind: BackendError.Kind) {
        let error = decode(status, #"{"error":"words","error_code":"\#(code)"}"#)
        #expect(error.kind == kind)
        #expect(error.code == code)
        #expect(error.message == "words")
    }

    @Test func aBodyThatIsNotDeclaredJSONIsNotRead() {
        let body = #"{"error":"invalid token data","error_code":"UserpassTokenInvalid"}"#
        let error = decode(400, body, contentType: "text/plain")
        #expect(error.code.isEmpty && error.kind == .refused)
        #expect(
            error.message == "the server answered HTTP 400 with a body linkd cannot read (\(body.utf8.count) bytes)"
        )
        #expect(decode(502, "Bad Gateway", contentType: nil).kind == .temporary)
        #expect(decode(429, "", contentType: nil).kind == .rateLimited)
    }
}
