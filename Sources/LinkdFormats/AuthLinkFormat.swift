public import LinkdRouting

/// A family of built-in formats that a configured link may name (`"format": "supabase"`), restricting the rules
/// of the detection table that apply to it.
public enum AuthLinkFormat: String, Sendable, Hashable, CaseIterable {
    case supabase
    case appservices
    case firebase
    case oauth
    case apple

    /// The rules of this family, in detection order.
    var rules: [AuthLinkRule] {
        switch self {
        case .supabase: [.errorRedirect(.supabase), .session, .pkce, .otp]
        case .oauth: [.errorRedirect(.oauth), .oauthCallback]
        case .apple: [.errorRedirect(.oauth), .apple]
        case .appservices: [.appServices]
        case .firebase: [.firebase]
        }
    }

    /// Reads `link` with this family's rules only.
    ///
    /// - Throws: the refusal of the rule that applies, or `format_mismatch` when none does.
    public func route(_ link: LinkURL) throws(RouteError) -> AuthRoute {
        let parameters = try link.parameters()
        for rule in rules {
            if let route = try rule.apply(to: link, parameters) { return route }
        }
        throw .refused(.formatMismatch, part: .parameters, "the link is not a '\(rawValue)' link")
    }
}

/// The built-in formats, all families at once, in detection order.
public enum AuthLinks {
    static let rules: [AuthLinkRule] = [
        .firebase, .errorRedirect(nil), .apple, .session, .oauthCallback, .pkce, .otp, .appServices,
    ]

    /// Reads `link` with every built-in rule; the first rule that applies decides.
    ///
    /// - Throws: the refusal of the rule that applies, or ``RouteError/unmatched(_:)`` (reason `no_route`) when
    ///   none does.
    public static func route(_ link: LinkURL) throws(RouteError) -> AuthRoute {
        let parameters = try link.parameters()
        for rule in rules {
            if let route = try rule.apply(to: link, parameters) { return route }
        }
        throw .unmatched(RouteExplanation(link: link.withoutQueryAndFragment, candidates: []))
    }

    /// Parses `text` strictly and reads it with every built-in rule.
    public static func route(_ text: String) throws(RouteError) -> AuthRoute {
        try route(LinkURL(parsing: text))
    }
}

extension LinkURL {
    /// Scheme, host, port and path: what a person may see of a link without its tokens.
    package var withoutQueryAndFragment: String {
        var text = scheme + ":"
        if let host { text += "//" + host.description + (port.map { ":" + String($0) } ?? "") }
        return text + pathname
    }
}
