import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdWire

/// `linkd login --app NAME --email ADDR | --provider P`: signs in to an app's Supabase backend, by a magic link emailed
/// to the address or through the provider's page in the browser; either way with PKCE, and the app's program gets the
/// session when the link that comes back is opened here.
struct LoginCommand: Command {
    static let name = "login"
    static let abstract = "Sign in to an app: by an emailed magic link, or with a provider in the browser."
    static let synopsis = Synopsis([
        .option("--app"),
        .oneOf([[.option("--email"), .optional("--code"), .optional("--code-stdin")], [.option("--provider")]]),
    ])
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        \(CommandOption.helpBlock(options))

        Supabase, with PKCE: the verifier is kept (0600) under $XDG_STATE_HOME/linkd for 10 minutes
        and used once, by the link that comes back to 'linkd open' (the emailed link, or the
        provider's redirect to the app's first signin link). The app's program gets the session,
        never the link. --email asks for the email (POST /otp, create_user false) and exits;
        --provider opens GET /authorize in the browser and waits, up to 10 minutes, until the
        sign-in has come back (Ctrl-C cancels and forgets the verifier); on a terminal it asks
        whether to keep the account that came back, since others may see the page's address. --email
        with --code asks, once the email is sent, for the 6-digit code it carries (its template's
        {{ .Token }}; POST /verify, type email) and hands the app the session the link would have
        (--code-stdin: the code from a line of standard input). For an app with "apple"
        settings, --provider apple opens Apple's own page, with a state and a hashed nonce, and the
        id token that comes back to the app's "apple" signin link signs in (Supabase's id-token grant,
        or App Services' oauth2-apple login).

        EXIT STATUS:
          0 requested (--email) or signed in (--provider), 64 usage error (or no such app), 65 the
          backend refused the request (no such account), 69 the backend is unreachable or no
          browser can be started, 75 temporary failure (retry later), cancelled, or no sign-in
          came back within 10 minutes.

        """

    static let options: [CommandOption] = [
        .value("--app", "<name>", "The app, as its apps.d file names it (\"app\").", values: .installed(.apps)),
        .value("--email", "<address>", "Email a magic link to this address (an existing account).", values: .nothing),
        .flag("--code", "With --email: sign in with the code the email carries, typed here (Supabase)."),
        .flag("--code-stdin", "With --code: read the code from a line of standard input."),
        .value(
            "--provider",
            "<provider>",
            "Sign in with this OAuth provider of the backend (github, google, apple, ...) in the browser: the "
                + "desktop portal, else $BROWSER, else xdg-open.",
            values: .words(["apple", "github", "google", "gitlab", "azure"])
        ),
    ]

    /// How the person signs in.
    enum Method: Equatable {
        /// A magic link emailed to the address.
        case email(String)
        /// An OAuth provider's page in the browser.
        case provider(String)
    }

    var app: String
    var method: Method
    /// `--code`: the emailed code, typed here, signs in.
    var withCode = false
    var codeFromStdin = false

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        try scanner.requireNoPositionals(command: Self.name)
        guard let app = scanner.values["--app"] else { throw .missingArgument("--app", command: Self.name) }
        self.app = app
        withCode = scanner.flags.contains("--code")
        codeFromStdin = scanner.flags.contains("--code-stdin")
        if codeFromStdin && !withCode { throw .missingArgument("--code", command: Self.name) }
        if withCode && scanner.values["--provider"] != nil {
            throw .conflict("--code", "--provider", command: Self.name)
        }
        switch (scanner.values["--email"], scanner.values["--provider"]) {
        case (.some, .some): throw .conflict("--email", "--provider", command: Self.name)
        case (nil, nil): throw .missingArgument("--email or --provider", command: Self.name)
        case (let email?, nil):
            guard AccountArguments.isPlausibleEmail(email) else {
                throw .badValue(email, option: "--email", command: Self.name)
            }
            method = .email(email)
        case (nil, let provider?):
            guard Self.isProviderName(provider) else {
                throw .badValue(provider, option: "--provider", command: Self.name)
            }
            method = .provider(provider)
        }
    }

    /// A provider as GoTrue names them: 1 to 64 of lower-case letters, digits, `_`, `-` and `:` (`custom:acme`).
    static func isProviderName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":")
            }
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        let config = try InstalledApp.named(app)
        // Apple's own page, for an app with `apple` settings: its `apple` link signs in at either backend.
        if case .provider("apple") = method, config.apple != nil { return try await signInWithApple(config, console) }
        guard let link = config.links.first(where: \.signsIn) else {
            throw .failed("\(app) claims no signin link for the sign-in to come back to", exitCode: .usage)
        }
        guard let signIn = (link.backend ?? config.backend)?.makeBackend().startedSignIn else {
            throw .failed(
                "\(app) has no Supabase backend to sign in with (at App Services, linkd signs in with Apple: "
                    + "--provider apple, with the app's 'apple' settings)",
                exitCode: .usage
            )
        }
        let store = PKCEStore(stateFolder: XDGDirectories().linkdState, purpose: .signIn)
        switch method {
        case .email(let email) where withCode:
            return try await signInWithCode(email: email, link: link, signIn: signIn, store: store, console)
        case .email(let email):
            try await requestEmail(to: email, leadingTo: link, signIn: signIn, store: store)
            console.write(
                "requested: a sign-in email for \(app) is on its way to \(JWTClaims.mask(email)); open its link here "
                    + "within 10 minutes.\n"
            )
            return .success
        case .provider(let provider):
            let (address, verifier) = try await startProviderSignIn(
                provider,
                signIn: signIn,
                redirectTo: link.match.description,
                store: store
            )
            return try await signInInBrowser(provider, address: address, verifier: verifier, store: store, console)
        }
    }

    /// Asks the backend to email `email` a magic link (with its code) that leads to `link`, its verifier in `store`.
    func requestEmail(
        to email: String,
        leadingTo link: LinkConfig,
        signIn: any SignInStarter,
        store: PKCEStore
    ) async throws(CommandFailure) {
        do throws(SignInFailure) {
            try await signIn.requestMagicLink(
                email: email,
                redirectTo: link.match.description,
                verifierStore: store,
                app: app
            )
        } catch {
            throw .failed(error.message, exitCode: WireProtocol.Failure(error).kind.exitCode)
        }
    }
}
