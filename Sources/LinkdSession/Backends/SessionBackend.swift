package import LinkdFormats
package import LinkdRouting

/// The session layer's client for an app's backend: what a reset link and a sign-in link need of it, and what else
/// the backend can do (``SignInStarter``, ``CodeResetting``, ``ResetFunctionCalling``, ``ConfirmationResending``),
/// `nil` where it cannot. Callers reach a backend through this alone, never through its concrete types.
package struct SessionBackend: Sendable {
    /// Confirms an account's email at the backend, once; it signs no one in.
    package typealias EmailConfirmation = @Sendable () async throws(SessionError) -> Void

    /// The backend as a reset sees it.
    package let reset: any AuthBackend
    /// The backend as a sign-in link sees it.
    package let signIn: any SignInBackend
    /// The sign-ins `linkd login` starts itself at this backend.
    package let startedSignIn: (any SignInStarter)?
    /// The reset by an emailed code.
    package let codeReset: (any CodeResetting)?
    /// The reset by the backend's reset function.
    package let resetFunction: (any ResetFunctionCalling)?
    /// The account confirmation, asked for again.
    package let confirmations: (any ConfirmationResending)?
    private let confirming: @Sendable (AuthRoute?) -> EmailConfirmation?

    /// A backend of these parts; `confirming` gives the confirmation a link makes at it (``emailConfirmation(of:)``).
    package init(
        reset: any AuthBackend,
        signIn: any SignInBackend,
        startedSignIn: (any SignInStarter)? = nil,
        codeReset: (any CodeResetting)? = nil,
        resetFunction: (any ResetFunctionCalling)? = nil,
        confirmations: (any ConfirmationResending)? = nil,
        confirming: @escaping @Sendable (AuthRoute?) -> EmailConfirmation? = { _ in nil }
    ) {
        self.reset = reset
        self.signIn = signIn
        self.startedSignIn = startedSignIn
        self.codeReset = codeReset
        self.resetFunction = resetFunction
        self.confirmations = confirmations
        self.confirming = confirming
    }

    /// The confirmation `route` makes at this backend when it is the backend's email-confirmation link (App Services'
    /// `appservices.confirm`: `POST …/local-userpass/confirm` with its token pair); `nil` for any other link.
    package func emailConfirmation(of route: AuthRoute?) -> EmailConfirmation? {
        confirming(route)
    }
}

/// How the session layer makes the client of one kind of backend: the kind's settings type conforms (in its own file,
/// beside how the configuration reads it).
package protocol SessionBackendMaking: BackendSettings {
    /// The backend's reset type, for what the backend declares of itself (``AuthBackend/emailedLinkPath``).
    static var resetType: any AuthBackend.Type { get }

    /// The client of the backend at `url`, reached through `transport`.
    func makeBackend(at url: LinkURL, transport: any HTTPTransport) -> SessionBackend
}

extension BackendConfig {
    /// The kind's settings as the session layer makes its client of them.
    private var making: any SessionBackendMaking {
        guard let making = kind as? any SessionBackendMaking else {
            preconditionFailure("the backend kind '\(type(of: kind).keyword)' has no client in the session layer")
        }
        return making
    }

    /// The backend's reset type, for what a backend declares of itself.
    package var backendType: any AuthBackend.Type { type(of: making).resetType }

    /// The session layer's client for this backend, on the live transport (with the backend's `caFile`): the one
    /// place a backend named in the configuration becomes its client.
    package func makeBackend() -> SessionBackend {
        making.makeBackend(at: url, transport: CurlTransport(caFile: caFile))
    }
}
