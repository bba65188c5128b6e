import LinkdConfig
import LinkdFormats
import LinkdRouting
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
        var links = LinkInput(arguments: urls, console: console)
        var count = 0
        var toSend: [Sent] = []
        var unanswered: [Sent] = []
        var connected = false
        var ended = false
        var worst = ExitCode.success
        // A link that is not UTF-8, refused here as `linkd parse` refuses it, once the links before it are answered.
        var refused: (number: Int, bytes: [UInt8])?
        while true {
            while !ended && unanswered.count + toSend.count < Self.window {
                let isIdle = unanswered.isEmpty && toSend.isEmpty
                if let link = refused {
                    guard isIdle else { break }
                    worst = max(worst, refuseLocally(link.bytes, number: link.number, &notice, console))
                    refused = nil
                }
                guard let bytes = isIdle ? links.next() : links.nextWithoutWaiting() else {
                    ended = isIdle
                    break
                }
                count += 1
                guard String(validating: bytes, as: UTF8.self) != nil else {
                    // Never turned into text with its bad bytes replaced: that would send another link than this one.
                    refused = (count, bytes)
                    continue
                }
                let input = String(decoding: bytes, as: UTF8.self)
                let shown = resolver.map { RouteOutput.redacted(input, try? $0.resolve(LinkURL(parsing: bytes))) }
                let request = WireProtocol.Request.open(
                    url: input,
                    interactive: prompt.canAnswer,
                    canConfirm: prompt.canConfirm
                )
                toSend.append(Sent(number: count, shownInput: shown, request: request))
            }
            if toSend.isEmpty && unanswered.isEmpty {
                guard let link = refused else { return worst }
                worst = max(worst, refuseLocally(link.bytes, number: link.number, &notice, console))
                refused = nil
                continue
            }
            if !toSend.isEmpty {
                if !connected {
                    try await Self.connect(&client, notice: &notice, worst: worst)
                    connected = true
                }
                for var sent in toSend {
                    sent.sends += 1
                    await client.send(sent.request)
                    unanswered.append(sent)
                }
                toSend = []
            }
            prompt.missingAskpass = nil
            let (received, gavePassword) = await Self.receive(&client, prompt: &prompt)
            if case .unread(let failure) = received {
                // No daemon reads the socket: nothing sent was taken, and nothing more is sent there.
                client.close()
                if let link = refused {
                    worst = max(worst, refuseLocally(link.bytes, number: link.number, &notice, console))
                }
                let numbers = unanswered.map(\.number)
                return max(
                    worst,
                    Self.reportUnread(failure, numbers: numbers, more: &links, from: count, &notice, console)
                )
            }
            let response: WireProtocol.Response? = if case .response(let response) = received { response } else { nil }
            var oldest = unanswered.removeFirst()
            oldest.gavePassword = oldest.gavePassword || gavePassword
            let stopped = response?.failure?.reason == WireProtocol.Failure.daemonStopping.reason
            if let response, !stopped || oldest.sends >= 2 {
                worst = max(worst, report(response, of: oldest, askpass: prompt.missingAskpass, &notice, console))
                if !stopped { continue }
            }
            client.close()
            connected = false
            for sent in (response == nil ? [oldest] : stopped && oldest.sends < 2 ? [oldest] : []) + unanswered {
                if sent.sends < 2 && !sent.gavePassword {
                    toSend.append(sent)
                } else {
                    let closed = Self.reportClosed(
                        number: sent.number,
                        gavePassword: sent.gavePassword,
                        &notice,
                        console
                    )
                    worst = max(worst, closed)
                }
            }
            unanswered = []
        }
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

    /// Reports links `numbers`, and every link still to come from `links` (numbered after `count`), as not opened
    /// for `failure` (the socket's listener never read them); returns its exit code (75).
    private static func reportUnread(
        _ failure: CommandFailure,
        numbers: [Int],
        more links: inout LinkInput,
        from count: Int,
        _ notice: inout OutcomeNotice?,
        _ console: Console
    ) -> ExitCode {
        var numbers = numbers
        var count = count
        while links.next() != nil {
            count += 1
            numbers.append(count)
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
