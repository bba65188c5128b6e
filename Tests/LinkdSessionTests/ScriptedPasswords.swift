import LinkdFormats
import LinkdSession
import LinkdSystem

/// Passwords given in order, recording the prompts and refusals each was asked with.
final class ScriptedPasswords: PasswordSource {
    private let remaining: Lock<[String]>
    let asked = Lock<[(prompt: String, rejection: BackendError?)]>([])
    private let whenAsked: @Sendable () -> Void

    init(_ passwords: [String], whenAsked: @escaping @Sendable () -> Void = {}) {
        remaining = Lock(passwords)
        self.whenAsked = whenAsked
    }

    func newPassword(prompt: String, rejection: BackendError?) async -> Secret? {
        asked.withLock { $0.append((prompt, rejection)) }
        whenAsked()
        return remaining.withLock { $0.isEmpty ? nil : Secret($0.removeFirst()) }
    }
}
