import LinkdRouting

extension FuzzTarget {
    /// `LinkURL(parsing:)` on any bytes: the byte and the text readings agree; an accepted link's `href` reads
    /// again as the same link, part by part, parameters included, and the link inside it, when it is a mail
    /// scanner's wrapper, reads as itself; a refusal is a refusal that names a reason, a part and a message.
    package static let link = FuzzTarget("link") { bytes in
        let fromBytes = Result { () throws(RouteError) in try LinkURL(parsing: bytes) }
        if let text = String(validating: bytes, as: UTF8.self) {
            let fromText = Result { () throws(RouteError) in try LinkURL(parsing: text) }
            require(fromText == fromBytes, "the readings of a text and of its bytes differ")
        }
        switch fromBytes {
        case .success(let link):
            require(link.href.utf8.allSatisfy { $0 < 0x80 }, "an href that is not ASCII")
            let again = Result { () throws(RouteError) in try LinkURL(parsing: link.href) }
            guard case .success(let reread) = again else { fatalError("invariant broken: an accepted href is refused") }
            require(reread.href == link.href, "an accepted link's href reads as another href")
            require(LinkParts(reread) == LinkParts(link), "an accepted link's href reads with other parts")
            checkParameters(link)
            checkWrapper(link)
        case .failure(let error):
            requireRefusal(error)
        }
    }

    /// The parameters of an accepted link: read twice alike, and each one found by its name.
    static func checkParameters(_ link: LinkURL) {
        let parameters: LinkParameters
        do throws(RouteError) {
            parameters = try link.parameters()
        } catch {
            requireRefusal(error)
            return
        }
        require(parameters.count <= LinkParameters.maximumCount, "more parameters than the limit")
        require(parameters.names == parameters.parameters.map(\.name), "names and parameters disagree")
        for parameter in parameters {
            require(parameters.contains(parameter.name), "a parameter is not found by its name")
            require(parameters[parameter.name] != nil, "a parameter has no value by its name")
            require(parameters.part(of: parameter.name) != nil, "a parameter has no part")
        }
    }

    /// The link inside a wrapper: there only when the link is a wrapper, itself a link that reads again as itself,
    /// and never the wrapper.
    static func checkWrapper(_ link: LinkURL) {
        guard let inner = LinkWrapper.unwrap(link) else { return }
        require(LinkWrapper.of(link) != nil, "a link that is no wrapper was unwrapped")
        require(inner.href != link.href, "a wrapper unwrapped to itself")
        let again = Result { () throws(RouteError) in try LinkURL(parsing: inner.href) }
        guard case .success(let reread) = again else { fatalError("invariant broken: an unwrapped link is refused") }
        require(reread.href == inner.href, "an unwrapped link reads as another href")
    }

    /// A refusal of a link: ``RouteError/refused(_:)`` with a reason, a part and a message.
    static func requireRefusal(_ error: RouteError) {
        guard case .refused(let refusal) = error else { fatalError("invariant broken: a link is refused as \(error)") }
        require(!refusal.message.isEmpty, "a refusal without a message")
        require(RefusalReason(rawValue: refusal.reason.rawValue) != nil, "a refusal without a reason")
        require(LinkPart(rawValue: refusal.part.rawValue) != nil, "a refusal without a part")
    }
}

/// The parts of a link as the URL API reads them, to compare two readings.
private struct LinkParts: Equatable {
    var parts: [String]
    var port: UInt16?
    var hasOpaquePath: Bool

    init(_ link: LinkURL) {
        parts =
            [
                link.protocol, link.hostname, link.host?.description ?? "-", link.pathname, link.search, link.hash,
                link.query ?? "-", link.fragment ?? "-", link.portText,
            ] + link.pathSegments.map(String.init)
        port = link.port
        hasOpaquePath = link.hasOpaquePath
    }
}
