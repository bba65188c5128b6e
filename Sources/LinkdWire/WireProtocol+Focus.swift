import LinkdFormats

extension WireProtocol {
    /// What lets the window a link opens take the focus: the click's `XDG_ACTIVATION_TOKEN` (Wayland's
    /// xdg-activation) and `DESKTOP_STARTUP_ID` (X11's startup notification), as the desktop gave them to the
    /// `linkd open` of the click. `"focus": {"activation_token": …, "startup_id": …}` in an `open` request. It is used
    /// once, for the link it came with, and kept in memory only: never logged, never in the spool.
    package struct Focus: Sendable, Equatable {
        package var activationToken: String?
        package var startupID: String?

        package init(activationToken: String?, startupID: String?) {
            self.activationToken = activationToken
            self.startupID = startupID
        }

        /// The focus the desktop gave this process (`variable` reads one environment variable); `nil` when it gave
        /// none.
        package static func given(by variable: (String) -> String?) -> Focus? {
            Focus(
                activationToken: variable("XDG_ACTIVATION_TOKEN").flatMap { $0.isEmpty ? nil : $0 },
                startupID: variable("DESKTOP_STARTUP_ID").flatMap { $0.isEmpty ? nil : $0 }
            ).nonEmpty
        }

        private var nonEmpty: Focus? { activationToken == nil && startupID == nil ? nil : self }

        /// The variables a started program takes it from.
        package var environment: [String: String] {
            var variables: [String: String] = [:]
            variables["XDG_ACTIVATION_TOKEN"] = activationToken
            variables["DESKTOP_STARTUP_ID"] = startupID
            return variables
        }

        /// The platform data of `org.freedesktop.Application` (`activation-token`, `desktop-startup-id`).
        package var platformData: [String: String] {
            var data: [String: String] = [:]
            data["activation-token"] = activationToken
            data["desktop-startup-id"] = startupID
            return data
        }

        /// `{"activation_token": …, "startup_id": …}`.
        var json: JSONValue {
            .object(
                (activationToken.map { [("activation_token", JSONValue.string($0))] } ?? [])
                    + (startupID.map { [("startup_id", JSONValue.string($0))] } ?? [])
            )
        }

        /// Reads `value`, an object of printable strings of at most 256 bytes; `nil` for anything else.
        init?(json value: JSONValue?) {
            guard let value, value.objectMembers != nil else { return nil }
            let read = { (key: String) -> String? in
                guard let text = value[key]?.stringValue, (1...256).contains(text.utf8.count),
                    text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
                else { return nil }
                return text
            }
            guard let focus = Focus(activationToken: read("activation_token"), startupID: read("startup_id")).nonEmpty
            else { return nil }
            self = focus
        }
    }
}
