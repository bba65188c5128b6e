import LinkdConfig
import LinkdFormats
import LinkdRouting
import LinkdSystem
import LinkdWire

/// How `linkd open` hands its links over: up to ``OpenCommand/window`` go to the daemon ahead of their answers,
/// which it gives in order (holding the ones sent ahead while it asks for a reset's password), so that a file of
/// links costs the daemon's work per link rather than a round trip each.
extension OpenCommand {
    /// How many links are sent ahead of their answers (the daemon holds 64 while it asks for a password).
    static let window = 32

    /// A link sent and not yet answered.
    private struct Sent {
        let number: Int
        /// The link as `--json` shows it, redacted.
        let shownInput: String?
        let request: WireProtocol.Request
        var sends = 0
        /// Whether a password went out for it.
        var gavePassword = false
    }

    /// The links of one `linkd open` on their way: read, to send, sent and not answered, and the worst exit so far.
    private struct Window {
        var links: LinkInput
        var count = 0
        var toSend: [Sent] = []
        var unanswered: [Sent] = []
        var connected = false
        var ended = false
        var worst = ExitCode.success
        /// A link that is not UTF-8, refused here as `linkd parse` refuses it, once the links before it are answered.
        var refused: (number: Int, bytes: [UInt8])?

        var isIdle: Bool { unanswered.isEmpty && toSend.isEmpty }
    }

    /// Opens every link, reporting each answer in the order the links came; returns the worst exit code.
    ///
    /// A link that waits for more of standard input is read only when no answer is awaited, so a slow writer's
    /// links are answered as they come. A password question is the oldest unanswered link's. When the connection
    /// ends, or the daemon says it stopped before acting on the oldest link (and so on those sent after it), each
    /// link not answered is sent once more on a new connection, unless a password went out for it: the reset may
    /// have happened, and a second run would ask (and perhaps send) again.
    func openAhead(
        _ client: inout DaemonClient,
        prompt: inout PasswordPrompt,
        resolver: LinkResolver?,
        notice: inout OutcomeNotice?,
        _ console: Console
    ) async throws(CommandFailure) -> ExitCode {
        var window = Window(links: LinkInput(arguments: urls, console: console))
        let asks = (answer: prompt.canAnswer, confirm: prompt.canConfirm)
        while true {
            fill(&window, asks: asks, resolver: resolver, &notice, console)
            if window.isIdle {
                guard window.refused != nil else { return window.worst }
                refuseHeld(&window, &notice, console)
                continue
            }
            if !window.toSend.isEmpty {
                if !window.connected {
                    try await Self.connect(&client, notice: &notice, worst: window.worst)
                    window.connected = true
                }
                for var sent in window.toSend {
                    sent.sends += 1
                    await client.send(sent.request)
                    window.unanswered.append(sent)
                }
                window.toSend = []
            }
            prompt.missingAskpass = nil
            let (received, gavePassword) = await Self.receive(&client, prompt: &prompt)
            if case .unread(let failure) = received {
                // No daemon reads the socket: nothing sent was taken, and nothing more is sent there.
                client.close()
                refuseHeld(&window, &notice, console)
                let numbers = window.unanswered.map(\.number)
                let unread = Self.reportUnread(failure, numbers: numbers, more: &window, &notice, console)
                return max(window.worst, unread)
            }
            let response: WireProtocol.Response? = if case .response(let response) = received { response } else { nil }
            settle(
                response,
                gavePassword: gavePassword,
                &window,
                &client,
                askpass: prompt.missingAskpass,
                &notice,
                console
            )
        }
    }

    /// Reads links into the window until it is full, or until standard input has none ready while links wait for
    /// their answers (a link that is not UTF-8 is held, and refused once the links before it are answered).
    private func fill(
        _ window: inout Window,
        asks: (answer: Bool, confirm: Bool),
        resolver: LinkResolver?,
        _ notice: inout OutcomeNotice?,
        _ console: Console
    ) {
        while !window.ended && window.unanswered.count + window.toSend.count < Self.window {
            let isIdle = window.isIdle
            if window.refused != nil {
                guard isIdle else { break }
                refuseHeld(&window, &notice, console)
            }
            guard let bytes = isIdle ? window.links.next() : window.links.nextWithoutWaiting() else {
                window.ended = isIdle
                break
            }
            window.count += 1
            guard String(validating: bytes, as: UTF8.self) != nil else {
                // Never turned into text with its bad bytes replaced: that would send another link than this one.
                window.refused = (window.count, bytes)
                continue
            }
            let input = String(decoding: bytes, as: UTF8.self)
            let shown = resolver.map { RouteOutput.redacted(input, try? $0.resolve(LinkURL(parsing: bytes))) }
            // The click's focus goes with its first link alone: a token is used once.
            let request = WireProtocol.Request.open(
                url: input,
                interactive: asks.answer,
                canConfirm: asks.confirm,
                focus: window.count == 1 ? WireProtocol.Focus.given(by: CurrentProcess.variable) : nil
            )
            window.toSend.append(Sent(number: window.count, shownInput: shown, request: request))
        }
    }

    /// Refuses the link the window holds as no UTF-8, if it holds one.
    private func refuseHeld(_ window: inout Window, _ notice: inout OutcomeNotice?, _ console: Console) {
        guard let link = window.refused else { return }
        window.worst = max(window.worst, refuseLocally(link.bytes, number: link.number, &notice, console))
        window.refused = nil
    }

    /// Reports the oldest unanswered link's `response` (`nil`: the connection ended). When the connection ended or
    /// the daemon stopped before acting on it, the connection is closed and every unanswered link is sent again once,
    /// or reported as not opened when it was sent twice or a password went out for it.
    private func settle(
        _ response: WireProtocol.Response?,
        gavePassword: Bool,
        _ window: inout Window,
        _ client: inout DaemonClient,
        askpass: String?,
        _ notice: inout OutcomeNotice?,
        _ console: Console
    ) {
        var oldest = window.unanswered.removeFirst()
        oldest.gavePassword = oldest.gavePassword || gavePassword
        let stopped = response?.failure?.reason == WireProtocol.Failure.daemonStopping.reason
        if let response, !stopped || oldest.sends >= 2 {
            window.worst = max(window.worst, report(response, of: oldest, askpass: askpass, &notice, console))
            if !stopped { return }
        }
        client.close()
        window.connected = false
        for sent in (response == nil ? [oldest] : stopped && oldest.sends < 2 ? [oldest] : []) + window.unanswered {
            if sent.sends < 2 && !sent.gavePassword {
                window.toSend.append(sent)
            } else {
                let closed = Self.reportClosed(number: sent.number, gavePassword: sent.gavePassword, &notice, console)
                window.worst = max(window.worst, closed)
            }
        }
        window.unanswered = []
    }

    /// The daemon's next answer, its password and confirmation questions on the way answered by `prompt`. Whether a
    /// password went out is said too: a reset may then have happened.
    static func receive(
        _ client: inout DaemonClient,
        prompt: inout PasswordPrompt
    ) async -> (received: DaemonClient.Received, gavePassword: Bool) {
        var gavePassword = false
        let received = await client.receive(
            within: DaemonClient.answerTimeout,
            answer: { question in
                let secret = prompt.answer(question)
                gavePassword = gavePassword || (question.asked == .password && secret != nil)
                return secret
            },
            confirm: { prompt.confirm($0) }
        )
        return (received, gavePassword)
    }

    /// Reports links `numbers`, and every link still to come from the window's input (numbered after its count), as
    /// not opened for `failure` (the socket's listener never read them); returns its exit code (75).
    private static func reportUnread(
        _ failure: CommandFailure,
        numbers: [Int],
        more window: inout Window,
        _ notice: inout OutcomeNotice?,
        _ console: Console
    ) -> ExitCode {
        var numbers = numbers
        while window.links.next() != nil {
            window.count += 1
            numbers.append(window.count)
        }
        for number in numbers.sorted() {
            console.writeError(LinkFailureLine.text(link: number, message: failure.description))
        }
        notice?.record(failure: failure.description)
        return failure.exitCode
    }

    /// Reports link `number`, whose `bytes` are no UTF-8, as refused (`invalid_utf8`, 65) as the parser words it;
    /// nothing is sent.
    private func refuseLocally(
        _ bytes: [UInt8],
        number: Int,
        _ notice: inout OutcomeNotice?,
        _ console: Console
    ) -> ExitCode {
        let failure: WireProtocol.Failure
        do throws(RouteError) {
            _ = try LinkURL(parsing: bytes)
            preconditionFailure("the parser refuses bytes that are no UTF-8")
        } catch {
            failure = WireProtocol.Failure(error, link: nil)
        }
        notice?.record(.failed(failure))
        let shown = LinkRedactor.redact(String(decoding: bytes, as: UTF8.self))
        return report(.failed(failure), input: shown, number: number, console)
    }

    /// Reports `response` to `sent`: when the askpass program could not be run (`askpass`) and the link failed,
    /// that is the error.
    private func report(
        _ response: WireProtocol.Response,
        of sent: Sent,
        askpass: String?,
        _ notice: inout OutcomeNotice?,
        _ console: Console
    ) -> ExitCode {
        guard let program = askpass, response.failure != nil else {
            notice?.record(response)
            return report(response, input: sent.shownInput, number: sent.number, console)
        }
        let failure = WireProtocol.Failure(
            kind: .unavailable,
            reason: .askpassNotFound,
            message: "the askpass program '\(program)' (LINKD_ASKPASS) cannot be found or run; nothing changed"
        )
        notice?.record(.failed(failure))
        return report(.failed(failure), input: sent.shownInput, number: sent.number, console)
    }
}
