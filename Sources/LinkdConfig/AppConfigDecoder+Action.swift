import LinkdFormats

extension AppConfigDecoder {
    mutating func linkAction(_ value: JSONValue?, at path: String) -> LinkAction? {
        let members = value?.objectMembers ?? []
        switch value {
        case nil:
            fail(path, "missing")
        case .string("reset"):
            return .reset
        case .string("forward"):
            return .forward
        case .object where members.count == 1 && members[0].0 == "exec":
            return exec(members[0].1, at: "\(path).exec").map(LinkAction.exec)
        case .object where members.count == 1 && members[0].0 == "signin":
            return signInDelivery(members[0].1, at: "\(path).signin").map(LinkAction.signin)
        case .object where members.count == 1 && members[0].0 == "dbus":
            guard let id = appID(members[0].1, at: "\(path).dbus") else { return nil }
            return .dbus(id)
        default:
            fail(path, #"expected "reset", "forward", {"exec": [argv…]}, {"dbus": "app.id"} or {"signin": …}"#)
        }
        return nil
    }

    /// An `exec` action's argv, its program resolved by ``programs``: every argument as written, since a link never
    /// goes into argv. A program that cannot be found, or is not trusted, is a problem of the link alone (see
    /// ``AppConfigDecoder``).
    private mutating func exec(_ value: JSONValue, at path: String) -> [String]? {
        guard let argv = value.arrayElements, !argv.isEmpty,
            case let words = argv.compactMap(\.stringValue), words.count == argv.count,
            words.allSatisfy({ !$0.isEmpty })
        else {
            fail(path, "expected a non-empty array of non-empty strings (the program and its arguments)")
            return nil
        }
        var isValid = true
        for (index, word) in words.enumerated() {
            guard let placeholder = Self.placeholder(in: word) else { continue }
            fail(
                "\(path)[\(index)]",
                "'\(placeholder)' is passed as written: the program gets the link as JSON on standard input, never in argv"
            )
            isValid = false
        }
        do throws(ProgramSearch.Failure) {
            let program = try programs.resolve(words[0])
            return isValid ? [program] + words.dropFirst() : nil
        } catch {
            report("\(path)[0]", error.description)
            // A file someone else can change is never run: its link does not load.
            if case .notTrusted = error { return nil }
            // Any other such link stays, with the program as written (no absolute path): the daemon then answers a
            // click on it that the program cannot be found, which a person can act on, and never runs anything for it.
            return isValid ? words : nil
        }
    }

    /// Where a `signin` action hands the session: `{"exec": [argv…]}`, or `"forward"` to the app's subscriber.
    private mutating func signInDelivery(_ value: JSONValue, at path: String) -> SignInDelivery? {
        let members = value.objectMembers ?? []
        switch value {
        case .object where members.count == 1 && members[0].0 == "exec":
            return exec(members[0].1, at: "\(path).exec").map(SignInDelivery.exec)
        case .string("forward"):
            return .forward
        default:
            fail(path, #"expected {"exec": [argv…]} or "forward": where the session goes"#)
        }
        return nil
    }

    /// The first desktop-entry field code (`%u`, `%F` …) or `{name}` placeholder (`{url}`, `{link}`) in `word`;
    /// a shell's `${name}` is not one.
    static func placeholder(in word: String) -> String? {
        let scalars = Array(word.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if scalar == "%", index + 1 < scalars.count, "fFuUdDnNickvm".unicodeScalars.contains(scalars[index + 1]) {
                return "%" + String(scalars[index + 1])
            }
            guard scalar == "{", index == 0 || scalars[index - 1] != "$",
                let close = scalars[(index + 1)...].firstIndex(of: "}"), close > index + 1,
                scalars[(index + 1)..<close].allSatisfy({ $0.properties.isAlphabetic || $0 == "_" || $0 == "-" })
            else { continue }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars[index...close])
            return text
        }
        return nil
    }

    /// A `signin` link needs the `supabase` format (the routes that sign in through PKCE, a token hash or the
    /// implicit flow) and a Supabase backend, the `appservices` format (an email confirmation) and an App Services
    /// backend, or the `apple` format (a Sign in with Apple callback), the app's `apple` settings and either backend.
    mutating func checkSignIn(
        format: AuthLinkFormat?,
        backend: BackendConfig?,
        hasOwnBackend: Bool,
        hasApple: Bool,
        at path: String
    ) {
        guard let format, [.supabase, .appservices, .apple].contains(format) else {
            fail("\(path).format", "action 'signin' needs format 'supabase', 'appservices' or 'apple'")
            return
        }
        guard let backend else {
            fail("\(path).action", "action 'signin' needs a backend (the app's or the link's)")
            return
        }
        if format == .apple {
            // Either backend takes an Apple id token: Supabase's id-token grant, App Services' oauth2-apple login.
            if !hasApple { fail("\(path).format", "an 'apple' sign-in link needs the app's 'apple' settings") }
        } else if backend.format != format {
            let location = hasOwnBackend ? "\(path).backend" : "$.backend"
            fail(location, "a '\(backend.format.rawValue)' backend cannot sign in with '\(format.rawValue)' links")
        }
    }

    mutating func checkReset(
        format: AuthLinkFormat?,
        backend: BackendConfig?,
        hasOwnBackend: Bool,
        at path: String
    ) {
        guard format == .supabase || format == .appservices else {
            fail("\(path).format", "action 'reset' needs format 'supabase' or 'appservices'")
            return
        }
        guard let backend else {
            fail("\(path).action", "action 'reset' needs a backend (the app's or the link's)")
            return
        }
        if backend.format != format {
            let location = hasOwnBackend ? "\(path).backend" : "$.backend"
            fail(location, "a '\(backend.format.rawValue)' backend cannot reset '\(format?.rawValue ?? "")' links")
        }
    }
}
