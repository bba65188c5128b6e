import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdSession
import LinkdWire

/// `linkd confirm resend --app NAME --email ADDR [--retry]`: has an App Services app's backend send the account's
/// confirmation email again, or (`--retry`) run its custom confirmation function again.
struct ConfirmCommand: Command {
    static let name = "confirm"
    static let abstract = "Ask an App Services app's backend to confirm an account again."
    static let synopsis = Synopsis([
        .action("resend", summary: "Confirm an account again"), .option("--app"), .option("--email"),
        .optional("--retry"),
    ])
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        \(CommandOption.helpBlock(options))

        App Services: .../local-userpass/confirm/send emails the confirmation link again (its link, opened
        here, confirms the account); with --retry, .../local-userpass/confirm/call runs the app's custom
        confirmation function again.

        EXIT STATUS:
          0 requested, 64 usage error (or no such app, or no App Services backend), 65 the backend refused
          the request (such as an account that is confirmed already), 69 the backend is unreachable,
          75 temporary failure (retry later).

        """

    static let options: [CommandOption] = [
        .value("--app", "<name>", "The app, as its apps.d file names it (\"app\").", values: .installed(.apps)),
        .value("--email", "<address>", "The account's email address.", values: .nothing),
        .flag("--retry", "Run the app's custom confirmation function again instead of sending the email."),
    ]

    var app: String
    var email: String
    var retry = false

    /// Parses `resend` and its options; the action comes first.
    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let account = try AccountArguments(arguments, action: "resend", of: Self.self)
        app = account.app
        email = account.email
        retry = account.scanner.flags.contains("--retry")
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        let config = try InstalledApp.named(app)
        let backends = [config.backend] + config.links.map(\.backend)
        guard let confirmations = backends.lazy.compactMap({ $0?.makeBackend().confirmations }).first else {
            throw .failed(
                "\(app) has no App Services backend; confirmation emails are App Services' (Supabase sends its own)",
                exitCode: .usage
            )
        }
        do throws(SessionError) {
            if retry {
                try await confirmations.retryConfirmation(email: email)
            } else {
                try await confirmations.resendConfirmation(email: email)
            }
        } catch {
            let failure = ResetFailure(error)
            throw .failed(failure.message, exitCode: WireProtocol.Failure(failure).kind.exitCode)
        }
        let masked = JWTClaims.mask(email)
        console.write(
            retry
                ? "requested: \(app)'s confirmation function runs again for \(masked)\n"
                : "requested: a confirmation email for \(masked) is on its way; open its link here\n"
        )
        return .success
    }
}
