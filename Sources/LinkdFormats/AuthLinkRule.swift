import LinkdRouting

/// One row of the detection table: when it applies, and how it reads the link.
enum AuthLinkRule: Sendable {
    enum ErrorFlavor: Sendable {
        case supabase
        case oauth
    }

    case firebase
    /// Rule 2; a family forces the flavor, the built-ins decide it from `error_code` and the `sb` marker.
    case errorRedirect(ErrorFlavor?)
    case apple
    case session
    case oauthCallback
    case pkce
    case otp
    case appServices

    /// The route, `nil` when the rule does not apply.
    ///
    /// - Throws: the rule's refusal when it applies but the link does not fit it.
    func apply(to link: LinkURL, _ parameters: LinkParameters) throws(RouteError) -> AuthRoute? {
        let reader = FieldReader(parameters: parameters)
        switch self {
        case .firebase:
            return try Self.firebase(link, parameters)
        case .errorRedirect(let forced):
            // GoTrue writes `error_description=` empty into the query when it has none (an Apple cancel): an empty
            // description counts as none, while an empty error or code is refused.
            guard ["error", "error_code"].contains(where: reader.has) || reader.hasValue("error_description") else {
                return nil
            }
            try reader.requireNonEmptyIfPresent(["error", "error_code"])
            let isSupabase = reader.has("error_code") || reader.has("sb") || !reader.has("error")
            switch forced ?? (isSupabase ? .supabase : .oauth) {
            case .supabase: return .supabaseError(SupabaseError(reader))
            case .oauth: return .oauthError(try OAuthError(reader))
            }
        case .apple:
            guard reader.has("id_token") || (reader.has("user") && reader.has("code")) else { return nil }
            try reader.requireNonEmptyIfPresent(reader.has("id_token") ? ["id_token"] : ["user", "code"])
            return .appleCallback(try AppleCallback(reader))
        case .session:
            guard reader.has("access_token") else { return nil }
            let session = try SupabaseSession(reader)
            return session.isRecovery ? .supabaseRecovery(session) : .supabaseSession(session)
        case .oauthCallback:
            guard reader.has("code") && reader.has("state") else { return nil }
            return .oauthCallback(try OAuthCallback(reader))
        case .pkce:
            guard reader.has("code") else { return nil }
            return .supabasePKCE(try SupabasePKCE(reader))
        case .otp:
            if reader.has("token_hash") { return .supabaseOTP(try SupabaseOTP(reader, tokenName: "token_hash")) }
            guard link.pathname.hasSuffix("/auth/v1/verify") && reader.has("token") else { return nil }
            return .supabaseOTP(try SupabaseOTP(reader, tokenName: "token"))
        case .appServices:
            guard reader.has("token") || reader.has("tokenId") else { return nil }
            let token = try AppServicesToken(reader)
            return Self.isConfirmation(link) ? .appServicesConfirm(token) : .appServicesReset(token)
        }
    }

    /// Firebase reads the query alone, and looks one level into a `link` or `deep_link_id` wrapper.
    private static func firebase(_ link: LinkURL, _ parameters: LinkParameters) throws(RouteError) -> AuthRoute? {
        let reader = FieldReader(parameters: parameters, queryOnly: true)
        if reader.has("mode") || reader.has("oobCode") {
            try reader.requireNonEmptyIfPresent(["mode", "oobCode"])
            return .firebaseAction(try FirebaseAction(reader))
        }
        for wrapper in ["link", "deep_link_id"] {
            guard let text = reader.optional(wrapper), let inner = try? LinkURL(parsing: text),
                let innerParameters = try? inner.parameters()
            else { continue }
            let innerReader = FieldReader(parameters: innerParameters, queryOnly: true)
            if innerReader.has("mode") || innerReader.has("oobCode") {
                try innerReader.requireNonEmptyIfPresent(["mode", "oobCode"])
                return .firebaseAction(try FirebaseAction(innerReader))
            }
        }
        return nil
    }

    /// App Services confirms when the last non-empty path segment, or the host of a custom-scheme link without a
    /// path, contains `confirm` in any case.
    private static func isConfirmation(_ link: LinkURL) -> Bool {
        let segments = link.pathSegments.filter { !$0.isEmpty }
        let word: String
        if let last = segments.last {
            word = String(last).removingPercentEncodingForMatch
        } else if !link.isSpecial {
            word = link.hostname
        } else {
            return false
        }
        return word.lowercased().contains("confirm")
    }
}

extension String {
    /// Percent-decodes once, keeping the text as it is where the result is not UTF-8.
    fileprivate var removingPercentEncodingForMatch: String {
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else {
                bytes.append(byte)
                continue
            }
            bytes.append(value)
        }
        return String(validating: bytes, as: UTF8.self) ?? self
    }
}
