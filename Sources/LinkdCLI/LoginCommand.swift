import LinkdConfig
import LinkdDaemon
import LinkdFormats
import LinkdRouting
import LinkdSession

/// `linkd login --app NAME --email ADDR`: asks the app's Supabase backend to email a magic link that signs in.
struct LoginCommand: Command {
    static let name = "login"
    static let abstract = "Sign in to an app: email a magic link that signs in when it is opened here."
    static let usage = "linkd login --app <name> --email <address>"
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        OPTIONS:
          --app <name>            The app, as its apps.d file names it ("app").
          --email <address>       The account's email address (an existing account).
          -h, --help              Show help information.

        Supabase: POST /otp with create_user false and a PKCE challenge; the verifier is kept (0600)
        under $XDG_STATE_HOME/linkd for 10 minutes and used once, when the emailed link comes to
        'linkd open'. The link leads to the app's first signin link, and the app's program gets the
        session, never the link.

        EXIT STATUS:
          0 requested, 64 usage error (or no such app), 65 the backend refused the request (no such
          account), 69 the backend is unreachable, 75 temporary failure (retry later).

        """

    static let options: [CommandOption] = [.value("--app"), .value("--email")]

    var app: String
    var email: String

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        try scanner.requireNoPositionals(command: Self.name)
        guard let app = scanner.values["--app"] else { throw .missingArgument("--app", command: Self.name) }
        guard let email = scanner.values["--email"] else { throw .missingArgument("--email", command: Self.name) }
        guard ResetCommand.isPlausibleEmail(email) else {
            throw .badValue(email, option: "--email", command: Self.name)
        }
        self.app = app
        self.email = email
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        let config = try InstalledApp.named(app)
        guard let link = config.links.first(where: { if case .signin = $0.action { true } else { false } }) else {
            throw .failed("\(app) claims no signin link for the email to lead to", exitCode: .usage)
        }
        guard let backend = link.backend ?? config.backend, case .supabase(let supabase) = backend.makeBackend() else {
            throw .failed("\(app) has no Supabase backend to sign in with", exitCode: .usage)
        }
        let store = PKCEStore(stateFolder: XDGDirectories().linkdState, purpose: .signIn)
        do throws(ResetFailure) {
            try await SupabaseSignIn(client: supabase.client).requestMagicLink(
                email: email,
                redirectTo: link.match.description,
                verifierStore: store,
                app: app
            )
        } catch {
            throw .failed(error.message, exitCode: ExitCode(rawValue: error.exitCode) ?? .unavailable)
        }
        console.write(
            "requested: a sign-in email for \(app) is on its way to \(JWTClaims.mask(email)); open its link here "
                + "within 10 minutes.\n"
        )
        return .success
    }
}
