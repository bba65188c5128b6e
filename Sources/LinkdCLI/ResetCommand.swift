import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdSystem
import LinkdWire

/// `linkd reset request --app NAME --email ADDR`: asks the app's backend to email a reset link;
/// `linkd reset --code --app NAME --email ADDR`: resets with the code of that email instead of its link.
struct ResetCommand: Command {
    static let name = "reset"
    static let abstract = "Ask an app's backend to email a password-reset link, or reset with the email's code."
    static let synopsis = Synopsis(
        [
            .action("request", summary: "Email a password-reset link"), .option("--app"), .option("--email"),
            .optional("--password-stdin"),
        ],
        [
            .option("--code"), .optional("--code-stdin"), .option("--app"), .option("--email"),
            .optional("--password-stdin"),
        ]
    )
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        \(CommandOption.helpBlock(options))

        Supabase: POST /recover with a PKCE challenge; the verifier is kept (0600) under
        $XDG_STATE_HOME/linkd for the flow's life (300 s) and used once, when the emailed link comes to
        'linkd open'. The link leads to the app's first reset link. App Services: .../reset/send; for
        a backend with "resetFunction": true, the new password is asked for here (terminal, askpass, or
        --password-stdin) and .../reset/call runs the app's reset function with it and "resetArguments".

        --code (Supabase): asks for the 6-digit code of the reset email (its template's {{ .Token }}), for
        a link that cannot be clicked here (a scanner opened it first, or the email was read on a phone);
        POST /verify with the address, the code and type recovery makes the session the link would, and
        the reset goes on as the link's: a second factor's code, the new password, PUT /user. A wrong
        code is asked again on a terminal. --code-stdin reads each code from the next line of standard
        input (the email's, then a second factor's), --password-stdin the password from the line after.

        EXIT STATUS:
          0 requested, 64 usage error (or no such app), 65 the backend refused the request, 69 the
          backend is unreachable, 75 temporary failure (retry later).

        """

    static let options: [CommandOption] = [
        .value("--app", "<name>", "The app, as its apps.d file names it (\"app\").", values: .installed(.apps)),
        .value("--email", "<address>", "The account's email address.", values: .nothing),
        .flag("--password-stdin", "Read the new password from one line of standard input."),
        .flag("--code", "Reset with the 6-digit code of the reset email instead of its link (Supabase)."),
        .flag("--code-stdin", "Read each code (the email's, a second factor's) from a line of standard input."),
    ]

    var app: String
    var email: String
    var passwordFromStdin = false
    /// `--code`: reset with the email's code, not request an email.
    var withCode = false
    var codeFromStdin = false

    /// Parses `request` and its options (the action comes first), or `--code` and the options.
    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let startsWithOption = arguments.first?.first == UInt8(ascii: "-")
        let account = try AccountArguments(arguments, action: startsWithOption ? nil : "request", of: Self.self)
        app = account.app
        email = account.email
        passwordFromStdin = account.scanner.flags.contains("--password-stdin")
        withCode = account.scanner.flags.contains("--code")
        codeFromStdin = account.scanner.flags.contains("--code-stdin")
        if withCode && !startsWithOption { throw .conflict("request", "--code", command: Self.name) }
        if !withCode && startsWithOption { throw .missingArgument("request or --code", command: Self.name) }
        if codeFromStdin && !withCode { throw .missingArgument("--code", command: Self.name) }
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        let config = try InstalledApp.named(app)
        if withCode { return try await resetWithCode(config, console) }
        guard let backend = config.resetBackend else {
            throw .failed("\(app) has no backend to reset a password with", exitCode: .usage)
        }
        let masked = JWTClaims.mask(email)
        if let arguments = backend.resetFunctionArguments, let function = backend.makeBackend().resetFunction {
            return try await callResetFunction(function, arguments: arguments, console)
        }
        let carriesCode: Bool
        do throws(ResetEmail.Refusal) {
            carriesCode = try await ResetEmail.request(
                app: app,
                backend: backend,
                resetLink: config.resetLink(of: backend),
                email: email,
                store: PKCEStore(stateFolder: XDGDirectories().linkdState)
            )
        } catch {
            switch error {
            case .notPossible(let message): throw .failed(message, exitCode: .usage)
            case .failed(let failure):
                throw .failed(failure.message, exitCode: WireProtocol.Failure(failure).kind.exitCode)
            }
        }
        // The code works too when the project's template carries it (the backend's "emailCodes").
        let code = carriesCode ? ", or type the code it carries: linkd reset --code --app \(app) --email \(email)" : ""
        console.write(
            "requested: if \(masked) has an account with \(app), a reset email is on its way; open its link here\(code).\n"
        )
        return .success
    }

    /// Asks for the new password and runs the app's reset function with it and `arguments`.
    private func callResetFunction(
        _ function: any ResetFunctionCalling,
        arguments: String,
        _ console: Console
    ) async throws(CommandFailure) -> ExitCode {
        let masked = JWTClaims.mask(email)
        var prompt = PasswordPrompt(
            passwordFromStdin: passwordFromStdin,
            console: console,
            environment: CurrentProcess.environment
        )
        let question = WireProtocol.SecretQuestion(prompt: "New password for \(masked) (\(app))", error: nil)
        guard let password = prompt.answer(question) else {
            if let missing = prompt.missingAskpass {
                throw .failed("the askpass program '\(missing)' cannot be found or run", exitCode: .unavailable)
            }
            throw .failed("no new password was given; nothing was sent", exitCode: .temporaryFailure)
        }
        do throws(ResetFailure) {
            try await function.callResetFunction(email: email, password: password, arguments: arguments)
        } catch {
            throw .failed(error.message, exitCode: WireProtocol.Failure(error).kind.exitCode)
        }
        console.write(
            "sent: \(app)'s reset function took the new password for \(masked); if it asks you to confirm, an "
                + "email is on its way\n"
        )
        return .success
    }
}
