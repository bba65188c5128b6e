package import LinkdFormats
package import LinkdRouting

/// A routed link: its route id, its fields, and the typed value when a built-in format read it.
package struct RoutedLink: Sendable {
    /// The route id (`supabase.recovery`), or for a format-less configured link its `match` text.
    package var id: String
    /// The fields by wire name.
    package var fields: RouteFields
    /// The typed route, when a built-in format read the link.
    package var auth: AuthRoute?
}

/// Who claimed a link, and what it routes to.
package struct Resolution: Sendable {
    /// The claiming app, `nil` when the built-in formats read the link.
    package var app: AppConfig?
    /// The claiming link of that app.
    package var link: LinkConfig?
    /// The route.
    package var route: RoutedLink
}

/// Routes links as the configuration says: the apps' claims first (the first claim in the apps' order, then link
/// order, decides), then, unless told otherwise, the built-in formats.
package struct LinkResolver: Sendable {
    private struct Claim: Sendable {
        var app: Int
        var link: Int
        var outcome: Result<RoutedLink, RouteError>
    }

    /// The apps, in the order given: folder, then file-name order, as ``ConfigLoader`` loads them.
    package let apps: [AppConfig]
    private let router: Router<Claim>
    private let usesBuiltIns: Bool

    /// A resolver over `apps`; with `fallbackToBuiltIns`, a link no app claims is read by the built-in formats.
    package init(apps: [AppConfig], fallbackToBuiltIns: Bool) {
        self.apps = apps
        usesBuiltIns = fallbackToBuiltIns
        var router = Router<Claim>(precedence: .declarationOrder)
        for (appIndex, app) in apps.enumerated() {
            for (linkIndex, link) in app.links.enumerated() {
                router.add(link.match) { match in
                    Claim(
                        app: appIndex,
                        link: linkIndex,
                        outcome: Result { () throws(RouteError) in try Self.read(match, link) }
                    )
                }
            }
        }
        self.router = router
    }

    private static func read(_ match: RouteMatch, _ link: LinkConfig) throws(RouteError) -> RoutedLink {
        if let format = link.format {
            let route = try format.route(match.link)
            return RoutedLink(id: route.id, fields: route.fields, auth: route)
        }
        var fields = RouteFields()
        let captures = match.pattern.segments.compactMap { segment -> String? in
            switch segment {
            case .capture(let name), .rest(let name): name
            case .literal: nil
            }
        }
        for name in captures {
            fields.set(name, try field(name, match.captures[name] ?? "", part: .path))
        }
        for parameter in match.parameters where fields[parameter.name] == nil {
            guard !(SecretShape.isSecret(parameter.name) && parameter.value.isEmpty) else { continue }
            fields.set(parameter.name, try field(parameter.name, parameter.value, part: parameter.part))
        }
        return RoutedLink(id: link.match.text, fields: fields, auth: nil)
    }

    /// A format-less field: text, or for a secret's name a shape-checked ``Secret``.
    private static func field(_ name: String, _ value: String, part: LinkPart) throws(RouteError) -> FieldValue {
        guard SecretShape.isSecret(name) else { return .text(value) }
        guard SecretShape.isWellFormed(value, name: name) else {
            throw .refused(.malformedSecret, part: part, "malformed secret '\(name)'")
        }
        return .secret(Secret(value))
    }

    /// The app one of whose links' patterns `link` matches, whether or not it reads as that link's format (a bare
    /// `com.example.notes://reset`, as a backend's `redirect_to` names it, is the app's even with no token yet).
    package func claimingApp(of link: LinkURL) -> AppConfig? {
        claim(of: link)?.app
    }

    /// The app and its link whose pattern `link` matches, as ``claimingApp(of:)`` finds them.
    package func claim(of link: LinkURL) -> (app: AppConfig, link: LinkConfig)? {
        (try? router.route(link)).map { (apps[$0.app], apps[$0.app].links[$0.link]) }
    }

    /// The resolution of `link`.
    ///
    /// - Throws: the claiming app's refusal (e.g. `format_mismatch`), the built-in formats' refusal, or
    ///   ``RouteError/unmatched(_:)``; without the built-in fallback its explanation names the nearest claims.
    package func resolve(_ link: LinkURL) throws(RouteError) -> Resolution {
        do {
            let claim = try router.route(link)
            let app = apps[claim.app]
            return Resolution(app: app, link: app.links[claim.link], route: try claim.outcome.get())
        } catch {
            guard case .unmatched = error, usesBuiltIns else { throw error }
        }
        let route = try AuthLinks.route(link)
        return Resolution(app: nil, link: nil, route: RoutedLink(id: route.id, fields: route.fields, auth: route))
    }
}
