/// The link sets `linkd-bench route` times besides the six: links that look like the world.
///
/// - `realistic`: the real links of the format tests (from the backends' own tests and documentation), and variants
///   of a few of them that leave the parser's plain path in each way a link can: an upper-case scheme, an
///   upper-case host, a default port, percent-encoded bytes, an IP host, a hash router, characters to encode.
/// - `short`: 50 short plain links of the common route families.
enum LinkSets {
    /// The real links, one per line.
    static let real: [String] = String(decoding: PackageResources.real_links_txt, as: UTF8.self)
        .split(separator: "\n").map(String.init)

    /// A way a link leaves the plain path, as a rewrite of a link (`nil` when it does not apply).
    struct Variant: Sendable {
        let name: String
        let rewrite: @Sendable (String) -> String?
    }

    static let variants: [Variant] = [
        Variant(name: "upper-case scheme") { link in
            guard let colon = link.firstIndex(of: ":") else { return nil }
            return link[..<colon].uppercased() + link[colon...]
        },
        Variant(name: "upper-case host") { link in
            guard let (start, end) = hostRange(link), link.hasPrefix("http") else { return nil }
            return link[..<start] + link[start..<end].uppercased() + link[end...]
        },
        Variant(name: "default port") { link in
            guard let (_, end) = hostRange(link), !link[..<end].hasSuffix("]"), link[end...].first != ":" else {
                return nil
            }
            let port = link.hasPrefix("https:") ? ":443" : link.hasPrefix("http:") ? ":80" : nil
            return port.map { link[..<end] + $0 + link[end...] }
        },
        Variant(name: "percent-encoded bytes") { link in
            inserting("email=ada%40example.com&next=%2Faccount%2Fsettings", into: link)
        },
        Variant(name: "IP host") { link in
            guard let (start, end) = hostRange(link), link.hasPrefix("http") else { return nil }
            return link[..<start] + (link.count % 2 == 0 ? "127.0.0.1" : "[::1]") + link[end...]
        },
        Variant(name: "hash router") { link in
            guard let hash = link.firstIndex(of: "#") else { return nil }
            return link[..<hash] + "#/account/reset#" + link[link.index(after: hash)...]
        },
        Variant(name: "characters to encode") { link in
            inserting("next=/my-account/ünïcode|\"page\"<b>", into: link)
        },
    ]

    /// The realistic set: every real link, then six variants of each kind, made from every third real link it
    /// applies to.
    static let realistic: [String] = realisticByKind.map(\.link)

    /// The realistic set, each link with its kind: `real` or the name of its variant.
    static let realisticByKind: [(kind: String, link: String)] = {
        var links = real.map { (kind: "real", link: $0) }
        for (number, variant) in variants.enumerated() {
            let made = real.indices.filter { ($0 + number) % 3 == 0 }.compactMap { variant.rewrite(real[$0]) }
            precondition(made.count >= 6, "six links of the kind \(variant.name)")
            links += made.prefix(6).map { (variant.name, $0) }
        }
        return links
    }()

    /// The short set: 50 plain links of the usual families, ≈ 90 bytes each.
    static let short: [String] = (0..<50).map { index in
        let token = BenchLinks.hex(32, seed: 100 + index)
        switch index % 5 {
        case 0: return "myapp://reset?token=\(token)&tokenId=\(BenchLinks.hex(24, seed: index))"
        case 1: return "https://app.example.com/reset?token=\(token)&tokenId=\(BenchLinks.hex(16, seed: index))"
        case 2: return "com.example.notes://login-callback?code=\(BenchLinks.hex(36, seed: index))&state=xyz"
        case 3: return "https://notes.example.com/auth/confirm?token_hash=\(token)&type=email"
        default: return "myapp://reset#error=access_denied&error_code=otp_expired&sb=\(index)"
        }
    }

    /// Where the host of a `scheme://host…` link stands.
    private static func hostRange(_ link: String) -> (String.Index, String.Index)? {
        guard let separator = link.firstRange(of: "://") else { return nil }
        let start = separator.upperBound
        let end = link[start...].firstIndex { "/?#:".contains($0) } ?? link.endIndex
        return start < end ? (start, end) : nil
    }

    /// `link` with `pair` added first in its query (a query made when it has none).
    private static func inserting(_ pair: String, into link: String) -> String {
        if let question = link.firstIndex(of: "?") {
            return link[...question] + pair + "&" + link[link.index(after: question)...]
        }
        let hash = link.firstIndex(of: "#") ?? link.endIndex
        return link[..<hash] + "?" + pair + link[hash...]
    }
}
