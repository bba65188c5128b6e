import LinkdFormats
import LinkdSession
import LinkdSystem

/// Passwords and codes given in order, recording the prompts and refusals each was asked with.
final class ScriptedPasswords: PasswordSource {
    private let remaining: Lock<[String]>
    private let remainingCodes: Lock<[String]>
    let asked = Lock<[(prompt: String, rejection: BackendError?)]>([])
    let askedCodes = Lock<[(prompt: String, rejection: BackendError?)]>([])
    private let whenAsked: @Sendable () -> Void

    init(_ passwords: [String], codes: [String] = [], whenAsked: @escaping @Sendable () -> Void = {}) {
        remaining = Lock(passwords)
        remainingCodes = Lock(codes)
        self.whenAsked = whenAsked
    }

    func newPassword(prompt: String, rejection: BackendError?) async -> Secret? {
        asked.withLock { $0.append((prompt, rejection)) }
        whenAsked()
        return remaining.withLock { $0.isEmpty ? nil : Secret($0.removeFirst()) }
    }

    func code(prompt: String, rejection: BackendError?) async -> Secret? {
        askedCodes.withLock { $0.append((prompt, rejection)) }
        return remainingCodes.withLock { $0.isEmpty ? nil : Secret($0.removeFirst()) }
    }
}
