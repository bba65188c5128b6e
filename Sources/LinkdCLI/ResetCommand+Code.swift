import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdSession
import LinkdSystem
import LinkdWire

extension ResetCommand {
    /// `linkd reset --code`: asks for the reset email's code, makes the recovery session with it, and runs the reset
    /// as the email's link would (a second factor's code, the new password), asking here.
    func resetWithCode(_ config: AppConfig, _ console: Console) async throws(CommandFailure) -> ExitCode {
        let resetLink = config.links.first(where: \.resetsPassword)
        guard let codeReset = (resetLink?.backend ?? config.backend)?.makeBackend().codeReset else {
            throw .failed(
                "\(app) has no Supabase backend to reset with a code (App Services emails links, not codes)",
                exitCode: .usage
            )
        }
        let answers = PromptAnswers(
            PasswordPrompt(
                passwordFromStdin: passwordFromStdin,
                codeFromStdin: codeFromStdin,
                console: console,
                environment: CurrentProcess.environment
            )
        )
        let prompt = "Code from the reset email for \(DisplayText.sanitize(email)) (\(DisplayText.sanitize(app)))"
        let verified = await CodeRounds.run(prompt: prompt, codes: answers) { (code) async throws(SessionError) in
            try await codeReset.reset(email: email, code: code, app: app)
        }
        let reset: ReadyReset
        switch verified {
        case .proved(let found): reset = found
        case .noCode: throw answers.nothingGiven("no code was given; nothing changed")
        case .failed(let error): throw .failed(ResetFailure(error))
        }
        let result = await reset.run(passwords: answers) { true }
        switch result {
        case .success(let success):
            console.write("done: \(app): the password of \(success.account) was changed\n")
            return .success
        case .failure(let failure) where failure.kind == .cancelled:
            throw answers.nothingGiven(failure.message)
        case .failure(let failure):
            throw .failed(failure)
        }
    }
}

extension PromptAnswers {
    /// The failure of a question no one answered: the askpass program that cannot be run (69), else `message` (75).
    func nothingGiven(_ message: String) -> CommandFailure {
        if let missing = missingAskpass {
            return .failed("the askpass program '\(missing)' cannot be found or run", exitCode: .unavailable)
        }
        return .failed(message, exitCode: .temporaryFailure)
    }
}

extension CommandFailure {
    /// A reset's failure, with the exit code of its kind.
    static func failed(_ failure: ResetFailure) -> Self {
        .failed(failure.message, exitCode: WireProtocol.Failure(failure).kind.exitCode)
    }
}
