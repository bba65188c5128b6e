import Foundation
import LinkdFormats
import LinkdSession
import LinkdTestSupport
import Testing

/// A sign-in's failures are its own: the kinds a sign-in can meet, in the same words a reset uses for the same
/// error of the backend, and a sign-in that cannot keep its verifier sends nothing.
@Suite(.ownThread) struct SignInFailureTests {
    private static func backend(_ kind: BackendError.Kind) -> SessionError {
        .backend(BackendError(kind: kind, status: 400, code: "code", message: "the backend's words"))
    }

    @Test(arguments: [
        (backend(.linkExpiredOrUsed), SignInFailureKind.linkExpiredOrUsed),
        (backend(.passwordRejected), .refused), (backend(.refused), .refused), (backend(.rateLimited), .temporary),
        (backend(.temporary), .temporary), (.transport(.timedOut(host: "h")), .unreachable),
        (.badResponse("no session"), .unreachable), (.notAnEmailedLink(methods: ["password"]), .refused),
    ])
    func eachErrorOfTheBackendIsASignInFailureInTheResetsWords(_ error: SessionError, _ kind: SignInFailureKind) {
        let failure = SignInFailure(error)
        #expect(failure.kind == kind)
        #expect(failure.message == ResetFailure(error).message)
        #expect(!failure.message.isEmpty)
    }

    @Test func aMagicLinkWhoseVerifierCannotBeKeptIsNotRequested() async throws {
        let double = try doubleWithAda()
        let store = PKCEStore(stateFolder: "/dev/null/linkd")  // below a file: nothing can be written there
        let signIn = SupabaseSignIn(client: double.backend.client)
        let failure = await #expect(throws: SignInFailure.self) {
            try await signIn.requestMagicLink(
                email: "ada@example.com",
                redirectTo: "com.example.notes://signin",
                verifierStore: store,
                app: "com.example.Notes"
            )
        }
        #expect(failure?.kind == .stateUnwritable)
        #expect(failure?.message.hasSuffix("; nothing was requested") == true)
        #expect(double.requests.isEmpty)
    }
}
