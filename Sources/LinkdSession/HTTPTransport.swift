/// One request to a backend. Secrets travel in `headers` and `body` only, never in `url`.
package struct HTTPRequest: Sendable {
    package var method: String
    package var url: String
    package var headers: [(name: String, value: String)]
    package var body: [UInt8]

    package init(method: String, url: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// A backend's answer; header names in lower case.
package struct HTTPResponse: Sendable {
    package var status: Int
    package var headers: [String: String]
    package var body: [UInt8]

    package init(status: Int, headers: [String: String], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why a request got no answer.
package enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not https (plain http is for loopback hosts alone).
    case insecureURL(String)
    /// No connection, DNS failure, TLS failure, connection closed mid-response: the backend's host, why, and
    /// whether the request was sent (in part or whole) before it failed.
    case unreachable(host: String, String, sent: Bool = false)
    /// The connect (5 s) or request (15 s) limit passed: the backend's host, and whether the request was sent before
    /// (it was, unless the limit passed while connecting).
    case timedOut(host: String, sent: Bool = true)

    package var description: String {
        switch self {
        case .insecureURL(let host):
            "linkd talks to backends over https only (plain http for loopback); '\(host)' is not"
        case .unreachable(let host, let why, _): "the backend '\(host)' cannot be reached: \(why)"
        case .timedOut(let host, _): "the backend '\(host)' did not answer in time"
        }
    }

    /// Whether the request may have reached the backend: false only when it failed before any of it was sent (the
    /// host name did not resolve, no connection, the TLS handshake failed, an address that is not https).
    package var mayHaveReachedBackend: Bool {
        switch self {
        case .insecureURL: false
        case .unreachable(_, _, let sent), .timedOut(_, let sent): sent
        }
    }
}

/// The one seam between the session layer and the network.
package protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}

/// Hosts that may be reached over plain http.
enum Loopback {
    static let hosts: Set<String> = ["127.0.0.1", "[::1]", "localhost"]
}

extension HTTPTransport {
    /// Sends `request`; a 2xx answer is returned, any other is thrown as the backend error `decode` reads from it.
    func exchange(
        _ request: HTTPRequest,
        decodingErrorsWith decode: (HTTPResponse) -> BackendError
    ) async throws(SessionError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await send(request)
        } catch {
            throw .transport(error)
        }
        guard (200..<300).contains(response.status) else { throw .backend(decode(response)) }
        return response
    }
}
