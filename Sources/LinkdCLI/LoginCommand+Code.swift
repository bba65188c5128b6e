import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdSession
import LinkdSystem
import LinkdWire

extension LoginCommand {
    /// `linkd login --email ADDR --code`: emails the sign-in as `--email` does, asks for the 6-digit code it carries
    /// (`POST /verify` with the address, the code and `type: email`), and hands the session the code makes to the
    /// daemon the way the email's link would come back — as the app's signin link with the session's tokens — and
    /// confirms it there, since it is the sign-in this command started.
    func signInWithCode(
        email: String,
        link: LinkConfig,
        signIn: any SignInStarter,
        store: PKCEStore,
        _ console: Console
    ) async throws(CommandFailure) -> ExitCode {
        try await requestEmail(to: email, leadingTo: link, signIn: signIn, store: store)
        console.write("requested: a sign-in email for \(app) is on its way to \(JWTClaims.mask(email)).\n")
        let prompt = PasswordPrompt(
            passwordFromStdin: false,
            codeFromStdin: codeFromStdin,
            console: console,
            environment: CurrentProcess.environment
        )
        let answers = PromptAnswers(prompt)
        let question = "Code from the sign-in email for \(DisplayText.sanitize(email)) (\(DisplayText.sanitize(app)))"
        let verified = await CodeRounds.run(prompt: question, codes: answers) { (code) async throws(SessionError) in
            try await signIn.signInLink(email: email, code: code, at: link.match.description)
        }
        let url: String
        switch verified {
        case .proved(let found): url = found
        case .noCode: throw answers.nothingGiven("no code was given; no one was signed in")
        case .failed(let error):
            let failure = SignInFailure(error)
            throw .failed(failure.message, exitCode: WireProtocol.Failure(failure).kind.exitCode)
        }
        return try await deliver(url, answers: answers, console)
    }

    /// Hands the daemon `url`, the app's signin link that brings back the session (``SignInStarter/signInLink(email:code:at:)``),
    /// answering the daemon's confirmation with yes and its questions (a second factor's code) with `answers`.
    private func deliver(
        _ url: String,
        answers: PromptAnswers,
        _ console: Console
    ) async throws(CommandFailure) -> ExitCode {
        var client = try await DaemonClient.connectedToUsersDaemon()
        defer { client.close() }
        await client.send(.open(url: url, interactive: true, canConfirm: true))
        let response = await client.receive(
            answer: { question in question.asked == .code ? answers.answer(question) : nil },
            confirm: { _ in true }  // the sign-in this command started, with the code the person typed here
        )
        switch response {
        case .accepted(_, _, _, let message)?:
            console.write("done: \(message.map(DisplayText.sanitize) ?? "signed in to \(app)")\n")
            return .success
        case .failed(let failure)?:
            throw .failed(DisplayText.sanitize(failure.message), exitCode: failure.kind.exitCode)
        case .subscribed?, .waiting?, nil:
            throw .failed(
                "the linkd daemon closed the connection; run 'linkd login' again",
                exitCode: .temporaryFailure
            )
        }
    }
}
