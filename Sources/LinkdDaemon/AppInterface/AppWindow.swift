import LinkdFormats
import LinkdSession
import LinkdSystem

/// An app's own window, as a reset or a sign-in reaches it through the apps' interface: the questions its subscriber
/// said it answers (the new password, a second factor's code, whether to keep a sign-in) and the results its
/// subscribers hear. Every signal goes to one
/// connection alone; a question is answered only by the connection it was sent to.
final class AppWindow: Sendable {
    /// A question an app's window may answer.
    enum Question: String, Sendable, CaseIterable {
        case password
        case code
        /// Whether to keep a sign-in ("Sign in to APP as EMAIL?"): the answer `yes` keeps it, any other refuses it.
        case confirm
    }

    /// What came of a question.
    enum Answer: Sendable, Equatable {
        /// The app's window gave it.
        case given(Secret)
        /// The person cancelled in the app's window.
        case declined
        /// No window of the app answers it, or none did in time: ask elsewhere.
        case none
    }

    /// How the interface sends a signal to one connection; `false` when it could not.
    typealias Send = @Sendable (_ member: String, _ to: String, _ arguments: [BusValue]) async -> Bool

    private struct Asked: Sendable {
        let connection: String
        let continuation: CheckedContinuation<Answer, Never>
    }

    private struct State: Sendable {
        var send: Send?
        /// The connections subscribed as each app, in the order they subscribed.
        var listeners: [String: [String]] = [:]
        /// What each connection answers, by app.
        var answers: [String: [String: Set<Question>]] = [:]
        var asked: [String: Asked] = [:]
    }

    /// How long a window may take to answer before the question goes elsewhere.
    let timeLimit: Duration
    private let state = Lock(State())

    init(timeLimit: Duration) {
        self.timeLimit = timeLimit
    }

    /// The interface serves (`send`), or no longer does (`nil`).
    func connect(_ send: Send?) {
        state.withLock { $0.send = send }
    }

    /// `connection` subscribed as `app`: it hears the app's results.
    func listen(_ app: String, connection: String) {
        state.withLock { $0.listeners[app, default: []].append(connection) }
    }

    /// `connection`, subscribed as `app`, answers `questions` from now on (none: it stops answering).
    func answer(_ questions: Set<Question>, for app: String, connection: String) {
        state.withLock { $0.answers[app, default: [:]][connection] = questions }
    }

    /// `connection` left: it hears and answers nothing more, and what it was asked goes elsewhere.
    func leave(_ connection: String) {
        let dropped = state.withLock { state -> [Asked] in
            for app in state.listeners.keys { state.listeners[app]?.removeAll { $0 == connection } }
            for app in state.answers.keys { state.answers[app]?.removeValue(forKey: connection) }
            let mine = state.asked.filter { $0.value.connection == connection }
            for id in mine.keys { state.asked.removeValue(forKey: id) }
            return Array(mine.values)
        }
        for asked in dropped { asked.continuation.resume(returning: .none) }
    }

    /// Whether a window of `app` answers `question`.
    func answers(_ app: String, _ question: Question) -> Bool {
        state.withLock { state in state.answers[app]?.values.contains { $0.contains(question) } == true }
    }

    /// Asks `app`'s window `question` (`prompt`, and the backend's refusal of the last answer, if any), and waits for
    /// its answer up to ``timeLimit``; ``Answer/none`` at once when no window of the app answers it.
    func ask(_ app: String, _ question: Question, prompt: String, rejection: String?) async -> Answer {
        let (send, connection) = state.withLock { state in
            (state.send, state.answers[app]?.first { $0.value.contains(question) }?.key)
        }
        guard let send, let connection else { return .none }
        let id = (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined()
        return await withCheckedContinuation { continuation in
            state.withLock { $0.asked[id] = Asked(connection: connection, continuation: continuation) }
            Task {
                let arguments: [BusValue] = [
                    .string(id), .string(question.rawValue), .string(prompt), .string(rejection ?? ""),
                ]
                if await !send("Question", connection, arguments) { self.settle(id, .none) }
            }
            Task {
                try? await Task.sleep(for: self.timeLimit)
                self.settle(id, .none)
            }
        }
    }

    /// The window of `connection` answered question `id`; `false` when no such question was asked of it.
    func reply(_ id: String, from connection: String, _ answer: Answer) -> Bool {
        let isItsOwn = state.withLock { $0.asked[id]?.connection == connection }
        return isItsOwn && settle(id, answer)
    }

    @discardableResult
    private func settle(_ id: String, _ answer: Answer) -> Bool {
        guard let asked = state.withLock({ $0.asked.removeValue(forKey: id) }) else { return false }
        asked.continuation.resume(returning: answer)
        return true
    }

    /// Sends `member` with `arguments` to every connection subscribed as `app`.
    func tell(_ app: String, _ member: String, _ arguments: [BusValue]) async {
        let (send, connections) = state.withLock { ($0.send, $0.listeners[app] ?? []) }
        guard let send else { return }
        for connection in connections { _ = await send(member, connection, arguments) }
    }
}

/// The client of a reset whose app's window answers its questions: each goes to the window first, and to the
/// client that opened the link (its terminal, askpass) when the window does not answer in time.
struct AppWindowClient: LinkClient {
    let app: String
    let window: AppWindow
    let fallback: any LinkClient

    func newPassword(prompt: String, rejection: BackendError?) async -> Secret? {
        switch await window.ask(app, .password, prompt: prompt, rejection: rejection?.message) {
        case .given(let password): password
        case .declined: nil
        case .none: await fallback.newPassword(prompt: prompt, rejection: rejection)
        }
    }

    func code(prompt: String, rejection: BackendError?) async -> Secret? {
        switch await window.ask(app, .code, prompt: prompt, rejection: rejection?.message) {
        case .given(let code): code
        case .declined: nil
        case .none: await fallback.code(prompt: prompt, rejection: rejection)
        }
    }

    var isWaiting: Bool { get async { await fallback.isWaiting } }
    var canConfirm: Bool { get async { await fallback.canConfirm } }
    func confirm(prompt: String) async -> Bool { await fallback.confirm(prompt: prompt) }
}
