package import LinkdFormats

/// `{"signin": {"exec": [argv…]}}` or `{"signin": "forward"}`: where the session goes.
package struct SignInSettings: ActionSettings {
    package static let keyword = "signin"
    package static let example = #"{"signin": …}"#
    package let delivery: Delivery

    /// Where the session goes.
    package enum Delivery: Sendable, Equatable {
        /// Start the program (argv as in ``ExecSettings``) and hand it the session as JSON on standard input.
        case exec([String])
        /// Hand the session to the app's subscriber (as the `forward` action does a link), waiting in the daemon's
        /// memory, never on disk, until the app subscribes or the time to live passes.
        case forward
    }

    package init(delivery: Delivery) {
        self.delivery = delivery
    }

    package static func decode(_ value: JSONValue?, at path: String, with decoder: inout AppConfigDecoder) -> Self? {
        let members = value?.objectMembers ?? []
        switch value {
        case .object where members.count == 1 && members[0].0 == "exec":
            return decoder.programArgv(members[0].1, at: "\(path).exec").map { SignInSettings(delivery: .exec($0)) }
        case .string("forward"):
            return SignInSettings(delivery: .forward)
        default:
            decoder.fail(path, #"expected {"exec": [argv…]} or "forward": where the session goes"#)
            return nil
        }
    }

    /// A `signin` link needs the `supabase` format (the routes that sign in through PKCE, a token hash or the
    /// implicit flow) and a Supabase backend, the `appservices` format (an email confirmation) and an App
    /// Services backend, or the `apple` format (a Sign in with Apple callback), the app's `apple` settings and
    /// either backend.
    package func check(_ link: ActionLinkFacts, at path: String, with decoder: inout AppConfigDecoder) {
        guard let format = link.format, [.supabase, .appservices, .apple].contains(format) else {
            decoder.fail("\(path).format", "action 'signin' needs format 'supabase', 'appservices' or 'apple'")
            return
        }
        guard let backend = link.backend else {
            decoder.fail("\(path).action", "action 'signin' needs a backend (the app's or the link's)")
            return
        }
        if format == .apple {
            // Either backend takes an Apple id token: Supabase's id-token grant, App Services' oauth2-apple login.
            if !link.hasApple {
                decoder.fail("\(path).format", "an 'apple' sign-in link needs the app's 'apple' settings")
            }
        } else if backend.format != format {
            let location = link.hasOwnBackend ? "\(path).backend" : "$.backend"
            decoder.fail(
                location,
                "a '\(backend.format.rawValue)' backend cannot sign in with '\(format.rawValue)' links"
            )
        }
    }

    package var json: JSONValue {
        switch delivery {
        case .exec(let argv): .object([("signin", ExecSettings(argv: argv).json)])
        case .forward: .object([("signin", .string("forward"))])
        }
    }

    package var summary: String {
        switch delivery {
        case .exec(let argv): "signin, then " + ExecSettings(argv: argv).summary
        case .forward: "signin, then forward"
        }
    }
}
