import LinkdFormats
import LinkdSession
import LinkdSystem
import LinkdWire

/// One client connection: its requests are read and answered here, and a reset asks it for the new password on the
/// same connection (`{"ask": "password", …}` → `{"password": "…"}`). Only one of those runs at a time:
/// the connection reads its next request after the answer to the last one is written.
actor ClientConnection {
    /// How long a person may take to type a password.
    static let passwordTimeout: Duration = .seconds(300)

    let socket: AsyncSocket
    /// `nil` only while a read is in progress, which holds it: the one reference keeps its buffers from being copied.
    private var reader: LineReader?
    private var isGone = false
    /// Requests that arrived while a password was awaited (a client that sends ahead); served next, in order.
    private var heldRequests: [LineReader.Line] = []
    /// Whether the request being served came from a client that can ask the person to confirm a sign-in.
    private(set) var canConfirm = false

    init(_ socket: AsyncSocket) {
        self.socket = socket
        reader = LineReader(socket, limit: WireProtocol.maximumLine)
    }

    /// Answers the client's requests, one response per request line, until it goes away or sends nothing for
    /// `requestTimeout`. The loop runs on this actor, so a request costs no hop to it; a reset's password question
    /// (``askSecret(_:prompt:rejection:)``) comes in while the loop waits for the service's answer. A request that is
    /// not an `open` goes to the action that serves it (``RequestServing``); a subscription keeps the connection.
    func serve(_ service: LinkService, requestTimeout: Duration) async {
        while let line = await nextRequest(within: requestTimeout) {
            let response: WireProtocol.Response
            do throws(WireProtocol.Failure) {
                let request = try WireProtocol.Request(line: line)
                // A request read after the stop began (sent ahead by a client) is not started: nothing was done.
                guard !service.shutdown.isStopping else { throw .daemonStopping }
                guard let answer = try await answer(request, service) else { return }
                response = answer
            } catch {
                response = .failed(error)
            }
            do {
                try await write(response.line, deadline: .now + requestTimeout)
            } catch {
                return
            }
        }
    }

    /// The next request line, or `nil` when the client went away, sent nothing for `timeout`, the daemon stops, or
    /// the line was too long (the client is told so).
    private func nextRequest(within timeout: Duration) async -> [UInt8]? {
        let next: LineReader.Line
        do {
            guard let line = try await nextLine(deadline: .now + timeout) else { return nil }
            next = line
        } catch {
            return nil  // silent for too long, gone, or shutting down
        }
        guard !next.isCut else {
            let failure = WireProtocol.Failure(
                kind: .request,
                reason: .tooLong,
                message: "a request line is at most \(WireProtocol.maximumLine) bytes"
            )
            try? await write(WireProtocol.Response.failed(failure).line, deadline: .now + .seconds(1))
            return nil
        }
        return next.bytes
    }

    /// The answer to `request`; `nil` once an action kept the connection (a subscription).
    private func answer(
        _ request: WireProtocol.Request,
        _ service: LinkService
    ) async throws(WireProtocol.Failure) -> WireProtocol.Response? {
        if case .open(let url, let interactive, let canConfirm, let web, let focus) = request {
            // Only a client that can answer a question is handed to the service. A clicked web link the app cannot
            // take now goes back, untouched, to open in the browser.
            self.canConfirm = canConfirm
            return await service.open(url, client: interactive || canConfirm ? self : nil, web: web, focus: focus)
        }
        for server in service.actions.requestServers {
            switch try await server.serve(request, from: self, service: service) {
            case .answer(let response): return response
            case .keptConnection: return nil
            case nil: continue
            }
        }
        // A daemon made without the action that serves it (a test's own set of actions).
        throw WireProtocol.Failure(kind: .request, reason: .unknownOp, message: "this daemon serves no such request")
    }

    /// Marks whether the request being served came from a client that can ask the person to confirm a sign-in.
    func setCanConfirm(_ canConfirm: Bool) {
        self.canConfirm = canConfirm
    }

    /// The next request line: one held while a password was awaited first, else the next line read (see
    /// ``LineReader/nextLine(deadline:)``).
    func nextLine(deadline: ContinuousClock.Instant?) async throws -> LineReader.Line? {
        if !heldRequests.isEmpty { return heldRequests.removeFirst() }
        return try await readLine(deadline: deadline)
    }

    private func readLine(deadline: ContinuousClock.Instant?) async throws -> LineReader.Line? {
        guard var current = reader else { return nil }  // a read is already in progress: none overlaps it
        reader = nil
        defer { reader = current }
        do {
            guard let line = try await current.nextLine(deadline: deadline) else {
                isGone = true
                return nil
            }
            return line
        } catch {
            isGone = true
            throw error
        }
    }

    /// Writes `line` and a LF.
    func write(_ line: String, deadline: ContinuousClock.Instant) async throws {
        do {
            try await socket.write(Array((line + "\n").utf8), deadline: deadline)
        } catch {
            isGone = true
            throw error
        }
    }

    /// Whether the client is still connected (it has not closed its end).
    var isConnected: Bool {
        guard !isGone else { return false }
        return socket.isPeerConnected
    }

    /// Asks the client for a secret (the new password, a code); `nil` when it cannot answer, declines, or is gone.
    func askSecret(
        _ asked: WireProtocol.SecretQuestion.Asked,
        prompt: String,
        rejection: BackendError?
    ) async
        -> Secret?
    {
        guard !isGone else { return nil }
        let question = WireProtocol.SecretQuestion(
            asked,
            prompt: prompt,
            error: rejection.map { ResetFailure(.backend($0)).message }
        )
        guard let answer = await ask(question.line) else { return nil }
        return WireProtocol.secret(inAnswer: answer, to: question)
    }

    /// Asks the person, through the client, to confirm `prompt`; `false` when they do not, or the client cannot ask
    /// or is gone.
    func askConfirmation(prompt: String) async -> Bool {
        guard !isGone, canConfirm else { return false }
        return WireProtocol.isConfirmed(inAnswer: await ask(WireProtocol.ConfirmQuestion(prompt: prompt).line))
    }

    /// Writes the question `line` and returns the client's answer (which may not be JSON: `.null`); `nil` when the
    /// client is gone, sends too much ahead, or takes longer than ``passwordTimeout``.
    private func ask(_ line: String) async -> JSONValue? {
        do {
            try await write(line, deadline: .now + .seconds(5))
            let deadline = ContinuousClock.now + Self.passwordTimeout
            while true {
                guard let line = try await readLine(deadline: deadline) else { return nil }
                let answer = line.isCut ? nil : try? JSONValue.parse(line.bytes)
                if answer?["op"] != nil {
                    // Not the answer: a request sent ahead, kept for its turn (a bounded number of them).
                    guard heldRequests.count < 64 else { return nil }
                    heldRequests.append(line)
                    continue
                }
                return answer ?? .null
            }
        } catch {
            return nil
        }
    }
}

extension ClientConnection: LinkClient {
    func newPassword(prompt: String, rejection: BackendError?) async -> Secret? {
        await askSecret(.password, prompt: prompt, rejection: rejection)
    }

    func code(prompt: String, rejection: BackendError?) async -> Secret? {
        await askSecret(.code, prompt: prompt, rejection: rejection)
    }

    var isWaiting: Bool { isConnected }

    func confirm(prompt: String) async -> Bool { await askConfirmation(prompt: prompt) }
}
