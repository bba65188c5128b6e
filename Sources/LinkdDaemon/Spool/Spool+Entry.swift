extension Spool {
    /// One accepted link and the action it waits for.
    package struct Entry: Sendable, Equatable {
        /// Which action the link waits for, with what that action must remember across a restart: each action's
        /// file says what it keeps (`.exec(program:)`, `.reset(sent:)` …).
        package struct Kind: Sendable, Equatable {
            /// The action's keyword (``LinkAction/keyword``): the entry's `kind` in its file.
            package var keyword: String
            /// What the action keeps, as further members of the entry's file.
            package var memory: [String: Value]

            package init(keyword: String, memory: [String: Value] = [:]) {
                self.keyword = keyword
                self.memory = memory
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
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        static let id = Key(stringValue: "id")
        static let url = Key(stringValue: "url")
        static let attempts = Key(stringValue: "attempts")
        static let accepted = Key(stringValue: "accepted")
        static let kind = Key(stringValue: "kind")
        /// linkd 0.1's name for `kind`.
        static let action = Key(stringValue: "action")
        static let expires = Key(stringValue: "expires")
        /// The entry's own members; the others are its action's memory.
        static let own: Set<String> = ["id", "url", "attempts", "accepted", "kind", "action"]
    }

    /// Reads an entry. An entry without `kind` was written by linkd 0.1, whose files said the same with `action`,
    /// `app` and `expires` alone: a reset, a forward link, or else a link for a program.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        id = try container.decode(String.self, forKey: .id)
        url = try container.decode(String.self, forKey: .url)
        attempts = try container.decode(Int.self, forKey: .attempts)
        accepted = try container.decode(Double.self, forKey: .accepted)
        let keyword =
            try container.decodeIfPresent(String.self, forKey: .kind)
            ?? container.decodeIfPresent(String.self, forKey: .action)
            ?? (container.contains(.expires) ? "forward" : "exec")
        var memory: [String: Spool.Value] = [:]
        for key in container.allKeys where !Key.own.contains(key.stringValue) {
            memory[key.stringValue] = try container.decode(Spool.Value.self, forKey: key)
        }
        kind = Kind(keyword: keyword, memory: memory)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(id, forKey: .id)
        try container.encode(url, forKey: .url)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(accepted, forKey: .accepted)
        try container.encode(kind.keyword, forKey: .kind)
        for (name, value) in kind.memory { try container.encode(value, forKey: Key(stringValue: name)) }
    }
}
