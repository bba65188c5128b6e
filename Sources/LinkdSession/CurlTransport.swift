import CCurl
import LinkdRouting
import LinkdSystem

/// The live transport, on libcurl (what URLSession runs on under Linux, used directly because URLSession there can
/// neither trust an extra CA nor bound the connect time): redirects never followed (a redirect would carry the bearer
/// token elsewhere), http(s) only, https except for loopback hosts, connect limit 5 s, request limit 15 s, and the
/// overall ``RequestDeadline`` a reset sets. Each request runs its blocking `curl_easy_perform` on a thread of its own
/// (``BlockingCall``), never on the cooperative pool.
package struct CurlTransport: HTTPTransport {
    private let caFile: String?
    private let connectTimeout: Duration
    private let requestTimeout: Duration
    private let bodyLimit: Int
    private let proxy: String?

    /// - Parameters:
    ///   - caFile: a PEM file of an extra CA to trust beside the system's (`caFile` of a backend).
    ///   - connectTimeout: how long a connection may take (5 s).
    ///   - requestTimeout: how long one request may take in all (15 s).
    ///   - bodyLimit: the longest answer body read, in bytes (1 MiB); a longer one fails the request.
    ///   - proxy: the proxy to go through (an association file's `web.proxy`); none by default, whatever the
    ///     environment says.
    package init(
        caFile: String? = nil,
        connectTimeout: Duration = .seconds(5),
        requestTimeout: Duration = .seconds(15),
        bodyLimit: Int = 1 << 20,
        proxy: String? = nil
    ) {
        self.caFile = caFile
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.bodyLimit = bodyLimit
        self.proxy = proxy
    }

    package func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        guard let link = try? LinkURL(parsing: request.url) else { throw .insecureURL("(unreadable URL)") }
        guard link.scheme == "https" || (link.scheme == "http" && Loopback.hosts.contains(link.hostname)) else {
            throw .insecureURL(link.hostname)
        }
        if let caFile {
            // Checked at each use, as at the configuration's: it may have changed since.
            do throws(TrustedPath.Failure) {
                _ = try TrustedPath(checking: caFile)
            } catch {
                throw .unreachable(host: link.hostname, "the CA file (caFile) is not trusted: \(error.description)")
            }
        }
        var limit = requestTimeout
        if let deadline = RequestDeadline.current { limit = min(limit, deadline - .now) }
        guard limit > .zero else { throw .timedOut(host: link.hostname) }
        let exchange = CurlExchange(
            url: link.href,
            host: link.hostname,
            request: request,
            caFile: caFile,
            connectMilliseconds: Self.milliseconds(connectTimeout),
            totalMilliseconds: Self.milliseconds(limit),
            bodyLimit: bodyLimit,
            proxy: proxy
        )
        return try await BlockingCall.run { exchange.perform() }.get()
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}

/// One request on one curl easy handle, performed on the calling thread.
private struct CurlExchange: Sendable {
    var url: String
    /// The backend's host, for what an error says.
    var host: String
    var request: HTTPRequest
    var caFile: String?
    var connectMilliseconds: Int
    var totalMilliseconds: Int
    var bodyLimit: Int
    var proxy: String?

    /// What the callbacks collect.
    final class Answer {
        var headers: [String: String] = [:]
        var body: [UInt8] = []
        var tooLarge = false
        let bodyLimit: Int

        init(bodyLimit: Int) {
            self.bodyLimit = bodyLimit
        }
    }

    /// `bytes` as a person reads a size: `1 MiB`, `128 KiB`, `500 bytes`.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    func perform() -> Result<HTTPResponse, TransportError> {
        guard let api = Libcurl.api, let handle = api.pointee.easy_init() else {
            return .failure(.unreachable(host: host, "libcurl (libcurl.so.4) cannot be loaded"))
        }
        defer { api.pointee.easy_cleanup(handle) }
        let answer = Answer(bodyLimit: bodyLimit)
        let headerList = headers(api)
        defer { if let headerList { api.pointee.slist_free_all(headerList) } }
        let context = Unmanaged.passUnretained(answer).toOpaque()
        let status = configure(handle, api, headers: headerList, context: context)
        guard status == CURLE_OK else {
            return .failure(.unreachable(host: host, "libcurl refused an option (\(status.rawValue))"))
        }

        let outcome = withExtendedLifetime(answer) { api.pointee.easy_perform(handle) }
        guard outcome == CURLE_OK else {
            if answer.tooLarge {
                return .failure(
                    .unreachable(host: host, "the answer was larger than \(Self.size(bodyLimit))", sent: true)
                )
            }
            let sent = linkd_curl_got_to_sending(api, handle) != 0
            return .failure(
                Self.error(outcome, host: host, sent: sent, verifyResult: linkd_curl_verify_result(api, handle))
            )
        }
        let code = linkd_curl_response_code(api, handle)
        return .success(HTTPResponse(status: code, headers: answer.headers, body: answer.body))
    }

    /// The request's header list (the caller frees it), without the `Expect:` and empty `Content-Type:` curl would
    /// add on its own.
    private func headers(_ api: UnsafePointer<linkd_curl_api>) -> UnsafeMutablePointer<curl_slist>? {
        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        for (name, value) in request.headers { headerList = api.pointee.slist_append(headerList, "\(name): \(value)") }
        // curl's own defaults that a JSON API does not want.
        headerList = api.pointee.slist_append(headerList, "Expect:")
        if request.body.isEmpty && request.method != "GET" {
            headerList = api.pointee.slist_append(headerList, "Content-Type:")
        }
        return headerList
    }

    /// Sets the handle's options for the request; the first code that is not `CURLE_OK`, if any.
    private func configure(
        _ handle: UnsafeMutableRawPointer,
        _ api: UnsafePointer<linkd_curl_api>,
        headers headerList: UnsafeMutablePointer<curl_slist>?,
        context: UnsafeMutableRawPointer
    ) -> CURLcode {
        var status = CURLE_OK
        func set(_ code: CURLcode) { if status == CURLE_OK { status = code } }
        set(linkd_curl_set_string(api, handle, CURLOPT_URL, url))
        set(linkd_curl_set_string(api, handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(linkd_curl_set_long(api, handle, CURLOPT_FOLLOWLOCATION, 0))
        set(linkd_curl_set_long(api, handle, CURLOPT_NOSIGNAL, 1))
        // Proxy variables of whichever client started the daemon never see a token or a password: no proxy but the one
        // named.
        if let proxy {
            set(linkd_curl_set_string(api, handle, CURLOPT_PROXY, proxy))
        } else {
            set(linkd_curl_set_string(api, handle, CURLOPT_PROXY, ""))
            set(linkd_curl_set_string(api, handle, CURLOPT_NOPROXY, "*"))
        }
        set(linkd_curl_set_long(api, handle, CURLOPT_CONNECTTIMEOUT_MS, connectMilliseconds))
        set(linkd_curl_set_long(api, handle, CURLOPT_TIMEOUT_MS, totalMilliseconds))
        set(linkd_curl_set_list(api, handle, CURLOPT_HTTPHEADER, headerList))
        if let caFile {
            // The extra CA beside the system's hashed certificate folder, which OpenSSL consults as well.
            set(linkd_curl_set_string(api, handle, CURLOPT_CAINFO, caFile))
            set(linkd_curl_set_string(api, handle, CURLOPT_CAPATH, "/etc/ssl/certs"))
        }
        if request.method == "GET" {
            set(linkd_curl_set_long(api, handle, CURLOPT_HTTPGET, 1))
        } else {
            set(linkd_curl_set_long(api, handle, CURLOPT_POSTFIELDSIZE, request.body.count))
            var body = request.body
            body.append(0)  // never an empty buffer; the size above keeps the terminator out of the request
            body.withUnsafeMutableBytes {
                // COPYPOSTFIELDS copies: the buffer need not outlive this call.
                set(linkd_curl_set_pointer(api, handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress))
            }
            if request.method != "POST" {
                set(linkd_curl_set_string(api, handle, CURLOPT_CUSTOMREQUEST, request.method))
            }
        }
        set(linkd_curl_set_callback(api, handle, CURLOPT_WRITEFUNCTION, onBody))
        set(linkd_curl_set_pointer(api, handle, CURLOPT_WRITEDATA, context))
        set(linkd_curl_set_callback(api, handle, CURLOPT_HEADERFUNCTION, onHeader))
        set(linkd_curl_set_pointer(api, handle, CURLOPT_HEADERDATA, context))
        return status
    }

    /// The error of a transfer that ended with `code`; `sent` says whether it got as far as sending the request.
    private static func error(_ code: CURLcode, host: String, sent: Bool, verifyResult: Int) -> TransportError {
        switch code {
        case CURLE_OPERATION_TIMEDOUT: .timedOut(host: host, sent: sent)
        case CURLE_COULDNT_CONNECT: .unreachable(host: host, "the connection was refused")
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            .unreachable(host: host, "the host name does not resolve")
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_SEND_ERROR:
            .unreachable(host: host, "the connection closed before the answer was complete", sent: sent)
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_BAD_CONTENT_ENCODING:
            .unreachable(host: host, "the answer was not valid HTTP", sent: true)
        case CURLE_PEER_FAILED_VERIFICATION: .unreachable(host: host, certificateProblem(verifyResult))
        case CURLE_SSL_CONNECT_ERROR:
            .unreachable(host: host, "the TLS connection failed: the handshake was refused or cut short")
        case CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM:
            .unreachable(host: host, "the TLS connection failed: the CA file (caFile) cannot be used")
        case CURLE_UNSUPPORTED_PROTOCOL: .insecureURL("(not http or https)")
        default: .unreachable(host: host, "network error \(code.rawValue)", sent: sent)
        }
    }

    /// Why the server's certificate was refused, from OpenSSL's verify result (`X509_V_ERR_*`); a name that does
    /// not match is curl's own check, which leaves no result of its own.
    private static func certificateProblem(_ verifyResult: Int) -> String {
        switch verifyResult {
        case 9, 10: "the TLS connection failed: the server's certificate has expired or is not yet valid"
        case 2, 18, 19, 20, 21, 27:
            "the TLS connection failed: the server's certificate is not signed by a trusted CA"
        default: "the TLS connection failed: the server's certificate is not for this host name"
        }
    }
}

/// libcurl, loaded by the first request (`dlopen`, see Sources/CCurl/shim.h).
private enum Libcurl {
    // Filled once, under the lazy initialisation of this `static let`, and only read afterwards.
    nonisolated(unsafe) static let api: UnsafePointer<linkd_curl_api>? = {
        let table = UnsafeMutablePointer<linkd_curl_api>.allocate(capacity: 1)
        table.initialize(to: linkd_curl_api())
        guard linkd_curl_load(table) == 1 else {
            table.deallocate()
            return nil
        }
        return UnsafePointer(table)
    }()
}

private let onBody: linkd_curl_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let answer = Unmanaged<CurlExchange.Answer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard answer.body.count + length <= answer.bodyLimit else {
        answer.tooLarge = true
        return 0  // curl ends the transfer with CURLE_WRITE_ERROR
    }
    data.withMemoryRebound(to: UInt8.self, capacity: length) {
        answer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
    }
    return length
}

private let onHeader: linkd_curl_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    let answer = Unmanaged<CurlExchange.Answer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
    if line.hasPrefix("HTTP/") {
        answer.headers = [:]  // a new response (after a 100 Continue): its headers replace the earlier ones
    } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingWhitespace()
        answer.headers[name] = value
    }
    return length
}

extension Substring {
    fileprivate func trimmingWhitespace() -> String {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
