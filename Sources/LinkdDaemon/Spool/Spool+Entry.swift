package import LinkdSystem

extension Spool {
    /// One accepted link and the action it waits for.
    package struct Entry: Sendable, Equatable {
        /// Which action the link waits for, with what that action must remember across a restart.
        package enum Kind: Sendable, Equatable {
            /// An `exec` program has not read the link yet; `program` is the one started for it, once there is one.
            case exec(program: ProcessIdentity?)
            /// The app's D-Bus service has not taken the link yet.
            case dbus
            /// Queued for `app`'s subscriber until `expires` (seconds since 1970).
            case forward(app: String, expires: Double)
            /// A password reset; `sent` once the request carrying the password may have gone out.
            case reset(sent: Bool)
            /// A sign-in: the link's code is exchanged for a session, which goes to the app's program.
            case signin

            /// The action's keyword (``LinkAction/keyword``): the entry's `kind` in its file.
            package var keyword: String {
                switch self {
                case .exec: "exec"
                case .dbus: "dbus"
                case .forward: "forward"
                case .reset: "reset"
                case .signin: "signin"
                }
            }
        }

        /// The stable id: the file name, and the `id` an exec program receives, so it can recognise a repeat.
        package var id: String
        /// The link as the client sent it.
        package var url: String
        /// How many times its action was started (1, then 2 on the replay after a crash).
        package var attempts: Int
        /// When it was accepted, seconds since 1970.
        package var accepted: Double
        package var kind: Kind

        package init(id: String, url: String, attempts: Int, accepted: Double, kind: Kind) {
            self.id = id
            self.url = url
            self.attempts = attempts
            self.accepted = accepted
            self.kind = kind
        }

        /// The short id logs name the link by.
        package var shortID: Substring { id.prefix(8) }
    }
}

extension Spool.Entry: Codable {
    private enum Key: String, CodingKey {
        case id, url, attempts, accepted, kind, app, expires, sent, action, program
    }

    /// Reads an entry. An entry without `kind` was written by linkd 0.1, whose files said the same with `action`,
    /// `app` and `expires` alone: a reset, a forward link, or else a link for a program.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        id = try container.decode(String.self, forKey: .id)
        url = try container.decode(String.self, forKey: .url)
        attempts = try container.decode(Int.self, forKey: .attempts)
        accepted = try container.decode(Double.self, forKey: .accepted)
        let name =
            try container.decodeIfPresent(String.self, forKey: .kind)
            ?? container.decodeIfPresent(String.self, forKey: .action)
            ?? (container.contains(.expires) ? "forward" : "exec")
        switch name {
        case "exec": kind = .exec(program: try container.decodeIfPresent(ProcessIdentity.self, forKey: .program))
        case "dbus": kind = .dbus
        case "forward":
            kind = .forward(
                app: try container.decode(String.self, forKey: .app),
                expires: try container.decode(Double.self, forKey: .expires)
            )
        case "reset": kind = .reset(sent: try container.decodeIfPresent(Bool.self, forKey: .sent) ?? false)
        case "signin": kind = .signin
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown kind")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(id, forKey: .id)
        try container.encode(url, forKey: .url)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(accepted, forKey: .accepted)
        try container.encode(kind.keyword, forKey: .kind)
        switch kind {
        case .exec(let program): try container.encodeIfPresent(program, forKey: .program)
        case .dbus, .signin: break
        case .forward(let app, let expires):
            try container.encode(app, forKey: .app)
            try container.encode(expires, forKey: .expires)
        case .reset(let sent): try container.encode(sent, forKey: .sent)
        }
    }
}
