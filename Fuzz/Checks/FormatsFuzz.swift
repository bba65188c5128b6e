import FoundationEssentials
import LinkdConfig
import LinkdFormats
import LinkdRouting

extension FuzzTarget {
    /// The parameters and the built-in formats on any link, as `linkd route` reads it: every reading is a route or
    /// a refusal (or, for all formats at once, no route); a secret-named field is a ``Secret``; the redacted link
    /// shows no secret; each format names only its own routes.
    package static let formats = FuzzTarget("formats") { bytes in
        guard let link = try? LinkURL(parsing: bytes) else { return }
        checkParameters(link)
        let builtIn = Result { () throws(RouteError) in try AuthLinks.route(link) }
        switch builtIn {
        case .success(let route): checkRoute(route, of: link)
        case .failure(.unmatched): break
        case .failure(let error): requireRefusal(error)
        }
        let resolved = Result { () throws(RouteError) in
            try LinkResolver(apps: [], fallbackToBuiltIns: true).resolve(link).route.auth
        }
        // The router reads a path before it tries the formats: a segment that does not decode to UTF-8 is refused
        // there, even by a router with no pattern, where the formats alone read the link (or find no route).
        var isPathRefusal = false
        if case .failure(let error) = resolved { isPathRefusal = error.refusal?.part == .path }
        require(
            isPathRefusal || resolved.map { $0?.id } == builtIn.map { Optional($0.id) },
            "linkd route's reading differs from the formats'"
        )
        for format in AuthLinkFormat.allCases {
            switch Result(catching: { () throws(RouteError) in try format.route(link) }) {
            case .success(let route):
                checkRoute(route, of: link)
                require(families[format]?.contains { route.id.hasPrefix($0) } == true, "a format names another's route")
            case .failure(let error):
                requireRefusal(error)
            }
        }
    }

    /// The route ids each format may give.
    private static let families: [AuthLinkFormat: [String]] = [
        .supabase: ["supabase."], .appservices: ["appservices."], .firebase: ["firebase."],
        .oauth: ["oauth."], .apple: ["apple.", "oauth.error"],
    ]

    private static func checkRoute(_ route: AuthRoute, of link: LinkURL) {
        var secrets: [Secret] = []
        for field in route.fields {
            require(route.fields[field.name] == field.value, "a field is not found by its name")
            if SecretShape.isSecret(field.name) {
                require(field.value.secret != nil, "a secret-named field that is not a secret")
            }
            if let secret = field.value.secret {
                require(field.value.description == Secret.redacted, "a secret that prints")
                secrets.append(secret)
            }
        }
        let redacted = LinkRedactor.redact(link.href, values: secrets)
        for secret in secrets where secret.byteCount >= 4 {
            require(!redacted.contains(secret.revealed()), "the redacted link shows a secret")
        }
        if let claims = route.claims {
            _ = (claims.maskedEmail, claims.isExpired(at: Date(timeIntervalSince1970: 0)))
        }
    }
}
