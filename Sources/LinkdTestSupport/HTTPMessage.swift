package import Foundation

/// One HTTP/1.1 request as a test double received it, byte for byte where it matters.
package struct ReceivedRequest: Sendable, Equatable {
    package var method: String
    /// The request target as sent: path and query (`/token?grant_type=pkce`).
    package var target: String
    /// Header fields in the order received, names as sent.
    package var headers: [(name: String, value: String)]
    package var body: Data

    /// The path without the query.
    package var path: String { String(target.prefix { $0 != "?" }) }

    /// The query's parameters (form-decoded; the last of a repeated name wins).
    package var query: [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var result: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in
                text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            result[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return result
    }

    /// The first value of a header, by case-insensitive name.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as a JSON object, or nil.
    package var jsonBody: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }

    package static func == (lhs: ReceivedRequest, rhs: ReceivedRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.body == rhs.body
            && lhs.headers.map { [$0.name, $0.value] } == rhs.headers.map { [$0.name, $0.value] }
    }
}

/// A response a test double sends.
package struct DoubleResponse: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: Data
    /// When set, the connection closes after the head and this many bytes of the body (a backend dying mid-answer).
    package var cutShortAfter: Int?

    package init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response (`Content-Type: application/json`, exactly, as realm-core requires).
    package static func json(_ status: Int, _ object: Any, headers: [(name: String, value: String)] = []) -> Self {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return Self(status: status, headers: [("Content-Type", "application/json")] + headers, body: body)
    }

    var serialized: Data {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return Data(head.utf8) + body
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 422: "Unprocessable Entity"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
