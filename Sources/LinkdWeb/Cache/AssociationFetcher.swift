import LinkdSession

/// Fetches a site's association files as the platforms do: over https with a valid certificate (the system's CAs
/// and the app's `web.caFile`), no redirect followed (a 3xx is a failure), within the file's size limit and 5 s,
/// and through no proxy but the app's `web.proxy`; from `/.well-known/`, else (for Apple's file, on a 404) from the
/// root, with the same rules.
package struct AssociationFetcher: Sendable {
    let caFile: String?
    let proxy: String?
    let timeLimit: Duration

    /// - Parameters:
    ///   - caFile: a PEM file of certificates trusted beside the system's.
    ///   - proxy: the proxy to go through; none by default.
    ///   - timeLimit: how long a fetch may take in all (5 s).
    package init(caFile: String? = nil, proxy: String? = nil, timeLimit: Duration = .seconds(5)) {
        self.caFile = caFile
        self.proxy = proxy
        self.timeLimit = timeLimit
    }

    /// `file` on `host` (a host name, with `:port` when it is not 443), read as that file, and the path it was at; or
    /// why not. A path after the first (``AssociationFile/paths``) is tried only when the one before is not there (a
    /// 404); when none has it, the failure names each. The files an assetlinks.json includes are fetched with it, by
    /// the same rules, each kept or failed alone.
    package func fetch(_ file: AssociationFile, host: String) async -> Result<AssociationFetch, AssociationFailure> {
        var reasons: [String] = []
        for (index, path) in file.paths.enumerated() {
            let (result, status) = await fetch(file, address: "https://" + host + path)
            switch result {
            case .success(let bytes):
                return .success(AssociationFetch(bytes: bytes, path: path, included: await included(by: bytes, file)))
            case .failure(let failure):
                reasons.append(index == 0 ? failure.reason : "\(failure.reason) at \(path)")
                guard status == 404, index + 1 < file.paths.count else {
                    var reason = reasons[0]
                    if reasons.count > 1 { reason += " (and \(reasons.dropFirst().joined(separator: ", ")))" }
                    return .failure(AssociationFailure(reason, withdraws: failure.withdraws))
                }
            }
        }
        return .failure(AssociationFailure("no path to fetch it from"))
    }

    /// The files the `include` statements of an assetlinks.json's `bytes` name, each fetched (one level deep).
    private func included(by bytes: [UInt8], _ file: AssociationFile) async -> [AssetLinks.Included] {
        guard file == .android, let links = try? AssetLinks(parsing: bytes) else { return [] }
        var included: [AssetLinks.Included] = []
        for include in links.includes {
            let (result, _) = await fetch(file, address: include.address, isIncluded: true)
            included.append(AssetLinks.Included(address: include.address, result: result))
        }
        return included
    }

    /// `file` at `address`, and the HTTP status the site answered (`nil` when it did not); `isIncluded`: a file an
    /// assetlinks.json includes.
    private func fetch(
        _ file: AssociationFile,
        address: String,
        isIncluded: Bool = false
    ) async -> (Result<[UInt8], AssociationFailure>, status: Int?) {
        let transport = CurlTransport(
            caFile: caFile,
            connectTimeout: timeLimit,
            requestTimeout: timeLimit,
            bodyLimit: file.sizeLimit,
            proxy: proxy
        )
        let response: HTTPResponse
        do throws(TransportError) {
            response = try await transport.send(HTTPRequest(method: "GET", url: address))
        } catch {
            return (.failure(AssociationFailure(Self.reason(error))), nil)
        }
        let status = response.status
        switch status {
        case 200: break
        case 300..<400:
            let reason = "redirected (HTTP \(status)): association files are never fetched through one"
            return (.failure(AssociationFailure(reason, withdraws: true)), status)
        case 500..<600: return (.failure(AssociationFailure("HTTP \(status)")), status)
        default: return (.failure(AssociationFailure("HTTP \(status)", withdraws: true)), status)
        }
        if let problem = file.problem(in: response.body, isIncluded: isIncluded) {
            return (.failure(AssociationFailure("the file cannot be read: \(problem)", withdraws: true)), status)
        }
        return (.success(response.body), status)
    }
}

/// An association file fetched: its bytes, the path on the host it was at, and (for an assetlinks.json) the files its
/// `include` statements name.
package struct AssociationFetch: Sendable, Equatable {
    package let bytes: [UInt8]
    package let path: String
    package let included: [AssetLinks.Included]

    package init(bytes: [UInt8], path: String, included: [AssetLinks.Included] = []) {
        self.bytes = bytes
        self.path = path
        self.included = included
    }
}

extension AssociationFetcher {
    /// What went wrong on the way, in words about the site rather than a backend.
    static func reason(_ error: TransportError) -> String {
        switch error {
        case .insecureURL(let host): "'\(host)' is not a host an https address can name"
        case .unreachable(_, let why, _): why
        case .timedOut: "no answer within the time limit"
        }
    }
}

/// Why an association file is not there to check a link with, as `linkd status` and `linkd check` say it.
package struct AssociationFailure: Error, Sendable, Equatable, CustomStringConvertible {
    package let reason: String
    /// Whether the site itself said there is no such file (a redirect, any other 4xx or 3xx, a file that cannot be
    /// read): the last good file is withdrawn with it. A failure on the way (no connection, no answer in time, a
    /// 5xx) leaves the last good file in use, as the platforms keep theirs through an outage.
    package let withdraws: Bool

    package init(_ reason: String, withdraws: Bool = false) {
        self.reason = reason
        self.withdraws = withdraws
    }

    package var description: String { reason }
}
