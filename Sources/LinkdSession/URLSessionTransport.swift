import Foundation
import LinkdRouting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The live transport, on URLSession: an ephemeral session (no cookies, no cache, no stored credentials), redirects
/// never followed (a redirect would carry the bearer token elsewhere), https only except for loopback hosts.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// - Parameters:
    ///   - requestTimeout: seconds without progress before a request fails (15 s by default; at least 1).
    ///   - resourceTimeout: seconds one request may take in all (60 s).
    public init(requestTimeout: Double = 15, resourceTimeout: Double = 60) {
        let configuration = URLSessionConfiguration.ephemeral
        // Under a second, URLSession on Linux (libcurl) times out at once: whole seconds only.
        configuration.timeoutIntervalForRequest = max(1, requestTimeout.rounded(.up))
        configuration.timeoutIntervalForResource = resourceTimeout
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        session = URLSession(configuration: configuration, delegate: RedirectRefuser(), delegateQueue: nil)
    }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard let link = try? LinkURL(parsing: request.url), let url = URL(string: link.href) else {
            throw .insecureURL("(unreadable URL)")
        }
        guard link.scheme == "https" || (link.scheme == "http" && Loopback.hosts.contains(link.hostname)) else {
            throw .insecureURL(link.hostname)
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.addValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch let error as URLError {
            throw error.code == .timedOut ? .timedOut : .unreachable(Self.describe(error.code))
        } catch {
            throw .unreachable("the request failed")
        }
        guard let http = response as? HTTPURLResponse else { throw .unreachable("the answer was not HTTP") }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: Array(data))
    }

    /// A URLError told without its URL (which the error's own description includes).
    private static func describe(_ code: URLError.Code) -> String {
        switch code {
        case .cannotConnectToHost: "the connection was refused"
        case .cannotFindHost, .dnsLookupFailed: "the host name does not resolve"
        case .networkConnectionLost: "the connection closed before the answer was complete"
        case .notConnectedToInternet: "the machine is offline"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            "the TLS connection failed (certificate not trusted?)"
        case .badServerResponse: "the answer was not valid HTTP"
        default: "network error \(code.rawValue)"
        }
    }
}

/// Answers every redirect with "do not follow": the 3xx comes back as the response.
private final class RedirectRefuser: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
