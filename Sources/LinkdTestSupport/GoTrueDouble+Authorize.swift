import Foundation
import LinkdSystem

extension GoTrueDouble {
    /// Lets the simulated provider `provider` (`github`) sign its person in as `email`, an account of this double:
    /// `GET /authorize?provider=<provider>` then redirects with a code for that account.
    package func addProviderAccount(_ provider: String, email: String) {
        service.state.withLock { $0.providerAccounts[provider] = email }
    }
}

extension GoTrueService {
    /// `GET /auth/v1/authorize?provider=…&redirect_to=…&code_challenge=…&code_challenge_method=s256`: sign-in with
    /// an OAuth provider, which a browser opens (so without an `apikey`, which GoTrue does not ask for there).
    ///
    /// Followed from GoTrue's `internal/api/external.go` (`GetExternalProviderRedirectURL`, `ExternalProviderCallback`)
    /// and `pkce.go`. GoTrue answers with a `302` to the provider, which sends the browser back to GoTrue's
    /// `/callback`, which redirects to `redirect_to?code=<auth code>`; this double plays the provider too and answers
    /// `/authorize` with that last `302` at once, for the account ``GoTrueDouble/addProviderAccount(_:email:)`` gave
    /// the provider. The flow state's method is `oauth` (the session's `amr`). Errors are JSON, as GoTrue's are here:
    /// an unknown provider is `400 validation_failed "Unsupported provider: Provider <p> could not be found"`, and the
    /// PKCE checks are `/otp`'s. Not modelled: the implicit flow (no challenge: 400 here), scopes, `redirect_to`'s
    /// allow list, and the provider's own pages.
    func authorize(_ request: ReceivedRequest, _ state: inout GoTrueState) -> DoubleResponse {
        let query = request.query
        let provider = (query["provider"] ?? "").lowercased()
        guard let email = state.providerAccounts[provider],
            let user = state.users.values.first(where: { $0.email == email })
        else {
            let message = "Unsupported provider: Provider \(provider) could not be found"
            return Self.render(Failure(status: 400, code: "validation_failed", message: message), current: true)
        }
        let challenge: String?
        do {
            challenge = try Self.challenge(in: query)
        } catch let failure as Failure {
            return Self.render(failure, current: true)
        } catch {
            preconditionFailure("challenge(in:) throws only Failure")
        }
        guard let challenge else {
            let message = "this double signs in with PKCE only: code_challenge and code_challenge_method are required"
            return Self.render(Failure(status: 400, code: "validation_failed", message: message), current: true)
        }
        let redirect = query["redirect_to"] ?? "http://localhost:3000"
        let code = UUID().uuidString.lowercased()
        state.counter += 1
        state.flows[code] = GoTrueState.Flow(
            userID: user.id,
            challenge: challenge,
            created: now * 1000 + state.counter,
            method: "oauth",
            redirectTo: redirect
        )
        let location = redirect + (redirect.contains("?") ? "&" : "?") + "code=" + code
        return DoubleResponse(status: 302, headers: [("Location", location)], body: Data())
    }
}
