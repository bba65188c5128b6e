package import LinkdFormats

/// The questions for a second factor's code, shared by the reset and the sign-in: ask, prove, and ask again after a
/// refused code while the source can ask again.
package enum CodeRounds {
    /// How many codes one step-up sends at most.
    package static let limit = 5

    /// What asking for codes came to.
    package enum Outcome<Proved: Sendable>: Sendable {
        /// A code was proved: what proving it gave.
        case proved(Proved)
        /// No code was given (cancelled, or the source cannot ask), and none was refused before.
        case noCode
        /// The last code was refused, or proving failed otherwise.
        case failed(SessionError)
    }

    /// Asks `codes` with `prompt` and proves each code with `prove`, again after a ``BackendError/Kind/codeRejected``
    /// refusal (with it), at most ``limit`` times.
    package static func run<Proved: Sendable>(
        prompt: String,
        codes: some PasswordSource,
        prove: (Secret) async throws(SessionError) -> Proved
    ) async -> Outcome<Proved> {
        var rejection: BackendError?
        for attempt in 1...limit {
            guard let code = await codes.code(prompt: prompt, rejection: rejection) else {
                return rejection.map { .failed(.backend($0)) } ?? .noCode
            }
            do throws(SessionError) {
                return .proved(try await prove(code))
            } catch .backend(let error) where error.kind == .codeRejected && attempt < limit {
                rejection = error
            } catch {
                return .failed(error)
            }
        }
        preconditionFailure("every attempt returns or asks again")
    }
}
