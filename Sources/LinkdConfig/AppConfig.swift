package import LinkdFormats
package import LinkdRouting

/// One app's configuration: a JSON file in an `apps.d` folder.
package struct AppConfig: Sendable {
    /// The app id (`com.example.Notes`).
    package var app: String
    /// The file it was read from.
    package var file: String
    /// The links the app claims, in order.
    package var links: [LinkConfig]
    /// The app's backend, for `reset` links that name none of their own.
    package var backend: BackendConfig?
    /// Sign in with Apple's web flow, when the app offers it.
    package var apple: AppleConfig? = nil
    /// How the app's web links are checked against its site's association files, when it takes web links.
    package var web: WebConfig? = nil

    /// The hosts of the app's `https` links (with `:port` when not 443), each once, in order: whose association files
    /// its `web` section is checked against.
    package var webHosts: [String] {
        var hosts: [String] = []
        for link in links where link.match.scheme == "https" {
            let host = link.match.host + (link.match.port.map { ":\($0)" } ?? "")
            if !hosts.contains(host) { hosts.append(host) }
        }
        return hosts
    }
}

/// An app's web links (`"web"`): the identity its site publishes for its phone apps in its association files
/// (`apple-app-site-association`, `assetlinks.json`), and how those files are fetched.
package struct WebConfig: Sendable, Equatable {
    /// The Apple app id (`TEAMID.bundle.id`) the site's apple-app-site-association lists.
    package var appleAppID: String?
    /// The Android package the site's assetlinks.json lets handle its links.
    package var androidPackage: String?
    /// The signing-certificate fingerprints the app expects its site to list for ``androidPackage``; when there are
    /// any, a statement of the site's assetlinks.json counts only when it lists one of them.
    package var androidFingerprints: [String] = []
    /// A PEM file of certificates trusted, beside the system's, for the site's https.
    package var caFile: String?
    /// The proxy the files are fetched through; none by default.
    package var proxy: String?

    package init(appleAppID: String? = nil, androidPackage: String? = nil, caFile: String? = nil, proxy: String? = nil)
    {
        self.appleAppID = appleAppID
        self.androidPackage = androidPackage
        self.caFile = caFile
        self.proxy = proxy
    }

    /// Whether `id` is `TEAMID.bundle.id`: ten upper-case letters or digits, a dot, and a bundle id of letters,
    /// digits, `-` and `.`.
    package static func isAppleAppID(_ id: String) -> Bool {
        guard let dot = id.firstIndex(of: "."), id.distance(from: id.startIndex, to: dot) == 10 else { return false }
        let team = id[..<dot]
        let bundle = id[id.index(after: dot)...]
        return team.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber) } && !bundle.isEmpty
            && !bundle.hasPrefix(".") && !bundle.hasSuffix(".")
            && bundle.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
    }

    /// Whether `text` is a SHA-256 certificate fingerprint as assetlinks.json writes one: 32 bytes in upper-case hex,
    /// separated by colons (`14:6D:E9:…:5E`).
    package static func isFingerprint(_ text: String) -> Bool {
        let bytes = text.split(separator: ":", omittingEmptySubsequences: false)
        return bytes.count == 32
            && bytes.allSatisfy { byte in
                byte.utf8.count == 2
                    && byte.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) }
            }
    }

    /// Whether `name` is an Android package name: two or more dot-separated words, each a letter then letters,
    /// digits or `_`.
    package static func isAndroidPackage(_ name: String) -> Bool {
        let words = name.split(separator: ".", omittingEmptySubsequences: false)
        return words.count >= 2
            && words.allSatisfy { word in
                guard let first = word.first, first.isASCII, first.isLetter else { return false }
                return word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            }
    }
}

/// Sign in with Apple for an app (`"apple"`): the Services ID the app registered with Apple, the page of the app's
/// own that receives Apple's `form_post` and redirects to the app's `apple` sign-in link, and Apple's authorization
/// address.
package struct AppleConfig: Sendable, Equatable {
    /// The Apple Services ID (`client_id`).
    package var clientID: String
    /// The Return URL registered for it (`redirect_uri`).
    package var redirectURI: String
    /// Where the browser asks Apple (default `https://appleid.apple.com/auth/authorize`).
    package var authorizeURL: String
    /// What Apple is asked to share at the first sign-in: `name`, `email`, both (the default) or neither.
    package var scope: [String] = AppleConfig.defaultScope

    package static let defaultAuthorizeURL = "https://appleid.apple.com/auth/authorize"
    /// The scope Supabase's and Apple's own SDKs ask for.
    package static let defaultScope = ["name", "email"]
    /// The scopes Sign in with Apple knows.
    package static let scopes: Set<String> = ["name", "email"]
}

/// A link an app claims.
package struct LinkConfig: Sendable {
    /// The pattern (`com.example.notes://reset`).
    package var match: RoutePattern
    /// The family of built-in rules that reads the link; `nil` for a format-less link (captures and parameters).
    package var format: AuthLinkFormat?
    /// What linkd does with a routed link.
    package var action: LinkAction
    /// A backend for this link alone, when the app talks to two.
    package var backend: BackendConfig?
    /// The link's JSON path in its file (`$.links[2]`).
    package var path: String
    /// Where its `match` value stands in its file.
    package var position: TextPosition
}
