import LinkdFormats
import LinkdSession
import LinkdSystem
import LinkdWire

/// The person at this command, as a reset or sign-in run in this process asks them: the questions go to a
/// ``PasswordPrompt`` (standard input, the terminal or an askpass program), as `linkd open` answers the daemon's.
final class PromptAnswers: PasswordSource {
    private let prompt: Lock<PasswordPrompt>

    init(_ prompt: PasswordPrompt) {
        self.prompt = Lock(prompt)
    }

    /// The askpass program, when one was needed and cannot be run.
    var missingAskpass: String? { prompt.withLock { $0.missingAskpass } }

    func newPassword(prompt text: String, rejection: BackendError?) async -> Secret? {
        ask(.password, text, rejection: rejection)
    }

    func code(prompt text: String, rejection: BackendError?) async -> Secret? {
        ask(.code, text, rejection: rejection)
    }

    /// The answer to `question` (one the daemon asked, say).
    func answer(_ question: WireProtocol.SecretQuestion) -> Secret? {
        prompt.withLock { $0.answer(question) }
    }

    private func ask(_ asked: WireProtocol.SecretQuestion.Asked, _ text: String, rejection: BackendError?) -> Secret? {
        answer(
            WireProtocol.SecretQuestion(
                asked,
                prompt: text,
                error: rejection.map { ResetFailure(.backend($0)).message }
            )
        )
    }
}
