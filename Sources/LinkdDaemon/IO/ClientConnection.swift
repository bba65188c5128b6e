import Glibc
import LinkdFormats
import LinkdSession
import LinkdSystemd

/// One client connection: its requests are read and answered here, and a reset asks it for the new password on the
/// same connection (`{"ask": "password", …}` → `{"password": "…"}`, DESIGN.md §5). Only one of those runs at a time:
/// the connection reads its next request after the answer to the last one is written.
actor ClientConnection {
    /// How long a person may take to type a password.
    static let passwordTimeout: Duration = .seconds(300)

    let socket: AsyncSocket
    private var reader: LineReader
    /// Whether the client said it can answer password questions.
    var isInteractive = false
    private var isGone = false
    /// Requests that arrived while a password was awaited (a client that sends ahead); served next, in order.
    private var heldRequests: [[UInt8]] = []

    init(_ socket: AsyncSocket) {
        self.socket = socket
        reader = LineReader(socket, limit: WireProtocol.maximumLine)
    }

    /// The next request line: one held while a password was awaited first, else the next line read (see
    /// ``LineReader/nextLine(deadline:)``).
    func nextLine(deadline: ContinuousClock.Instant?) async throws -> [UInt8]? {
        if !heldRequests.isEmpty { return heldRequests.removeFirst() }
        return try await readLine(deadline: deadline)
    }

    private func readLine(deadline: ContinuousClock.Instant?) async throws -> [UInt8]? {
        var current = reader
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

    func setInteractive(_ value: Bool) { isInteractive = value }

    /// Whether the client is still connected (it has not closed its end).
    var isConnected: Bool {
        guard !isGone else { return false }
        var byte: UInt8 = 0
        let count = recv(socket.descriptor.rawValue, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count > 0 || (count < 0 && (errno == EAGAIN || errno == EINTR))
    }

    /// Asks the client for the new password; `nil` when it cannot answer, declines, or is gone.
    func askPassword(prompt: String, rejection: BackendError?) async -> Secret? {
        guard isInteractive, !isGone else { return nil }
        var members: [(String, JSONValue)] = [("ask", .string("password")), ("prompt", .string(prompt))]
        if let rejection { members.append(("error", .string(ResetFailure(.backend(rejection)).message))) }
        do {
            try await write(JSONValue.object(members).serialized, deadline: .now + .seconds(5))
            let deadline = ContinuousClock.now + Self.passwordTimeout
            while true {
                guard let line = try await readLine(deadline: deadline) else { return nil }
                let answer = try? JSONValue.parse(line)
                if answer?["op"] != nil {
                    // Not the answer: a request sent ahead, kept for its turn (a bounded number of them).
                    guard heldRequests.count < 64 else { return nil }
                    heldRequests.append(line)
                    continue
                }
                guard let password = answer?["password"]?.stringValue, !password.isEmpty else { return nil }
                return Secret(password)
            }
        } catch {
            return nil
        }
    }
}

/// The password source of a reset: the client on `connection`.
struct ConnectionPasswords: PasswordSource {
    let connection: ClientConnection

    func newPassword(prompt: String, rejection: BackendError?) async -> Secret? {
        await connection.askPassword(prompt: prompt, rejection: rejection)
    }
}
