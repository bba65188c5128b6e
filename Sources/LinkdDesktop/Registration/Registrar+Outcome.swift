extension Registrar {
    /// What ``register(_:executable:)`` or ``unregister(_:)`` did, and the line that says it.
    package struct Outcome: Sendable, Equatable {
        /// Which of the two ran.
        package enum Action: Sendable, Equatable {
            case register
            case unregister
        }

        /// Which of the two ran.
        package var action: Action
        /// The schemes, lower case, in the order given; for `unregister` with none named, every one linkd had.
        package var schemes: [String]
        /// By scheme, the desktop file id of the default `register` replaced or `unregister` put back.
        package var others: [String: String]
        /// Whether any file changed.
        package var changed: Bool

        /// The line that says what was done, the scheme whose default changed hands followed by the other handler:
        /// `registered: myapp (was: com.example.Notes.desktop), other`, `already registered: myapp`,
        /// `unregistered: myapp (restored: com.example.Notes.desktop)`, `not registered: myapp`, or
        /// `nothing to unregister` when `unregister` found no scheme.
        package var summary: String {
            if schemes.isEmpty { return "nothing to unregister" }
            let word = action == .register ? "was" : "restored"
            let names = schemes.map { scheme in others[scheme].map { "\(scheme) (\(word): \($0))" } ?? scheme }
            let verb =
                switch (action, changed) {
                case (.register, true): "registered"
                case (.register, false): "already registered"
                case (.unregister, true): "unregistered"
                case (.unregister, false): "not registered"
                }
            return verb + ": " + names.joined(separator: ", ")
        }
    }
}
