package import LinkdFormats
package import LinkdRouting

/// What the backend answered when asked where one of its emailed links leads.
package enum EmailedLinkAnswer: Sendable, Equatable {
    /// It redirects to `location` (the app's link, if the backend is honest: the caller checks).
    case redirect(location: String)
    /// It refused the link with `status`; `said` is its own message, sanitized and at most 200 characters.
    case refused(status: Int, said: String?)
    /// No answer came: why.
    case unreachable(String)
}

extension BackendConfig {
    /// Whether `link` is an emailed link of this backend's own (``AuthBackend/emailedLinkPath`` under its URL, on its
    /// scheme, host and port): the link a mail client without a browser hands over as the email has it.
    package func isEmailedLink(_ link: LinkURL) -> Bool {
        guard let path = backendType.emailedLinkPath, url.scheme == link.scheme, url.hostname == link.hostname,
            url.port == link.port
        else { return false }
        let base = url.pathname.hasSuffix("/") ? String(url.pathname.dropLast()) : url.pathname
        return link.pathname == base + path
    }

    /// Makes the request a browser would make for the emailed `link`, without following the redirect: the answer
    /// says where the link leads.
    package func follow(emailedLink link: LinkURL) async -> EmailedLinkAnswer {
        let response: HTTPResponse
        do {
            response = try await CurlTransport(caFile: caFile).send(HTTPRequest(method: "GET", url: link.href))
        } catch {
            return .unreachable("\(error)")
        }
        guard response.status == 303 || response.status == 302, let location = response.headers["location"] else {
            let said = (try? JSONValue.parse(response.body)).flatMap {
                $0["msg"]?.stringValue ?? $0["message"]?.stringValue
            }
            return .refused(status: response.status, said: said.map { DisplayText.sanitize(String($0.prefix(200))) })
        }
        return .redirect(location: location)
    }
}
