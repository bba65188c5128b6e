package import LinkdFormats

extension GoTrueSession {
    /// What an app gets for a sign-in, as one JSON object and a newline: `{"id", "app", "route", "session":
    /// {"access_token", "refresh_token", "expires_at", "token_type", "provider", "user": {"id", "email", "name"?}},
    /// "backend": "supabase"}`, with the real token values (the app acts on them); `name` (`{"firstName",
    /// "lastName"}`) is the one Sign in with Apple gave at the first sign-in, when it did.
    ///
    /// - Parameters:
    ///   - id: the link's spool id, by which the app can recognise a repeat.
    ///   - app: the app's id.
    ///   - route: the id of the link's route (`supabase.pkce`).
    package func delivery(id: String, app: String, route: String, name: PersonName? = nil) -> [UInt8] {
        var person: [(String, JSONValue)] = [("id", .string(user.id)), ("email", .string(user.email))]
        if let name { person.append(("name", name.json)) }
        let session = JSONValue.object([
            ("access_token", .string(accessToken.revealed())), ("refresh_token", .string(refreshToken.revealed())),
            ("expires_at", .number(expiresAt)), ("token_type", .string(tokenType)),
            ("provider", .string(user.provider)),
            ("user", .object(person)),
        ])
        let object = JSONValue.object([
            ("id", .string(id)), ("app", .string(app)), ("route", .string(route)), ("session", session),
            ("backend", .string("supabase")),
        ])
        return Array((object.serialized + "\n").utf8)
    }

    /// The session's secret values, for a redactor: its tokens.
    package var secretValues: [String] { [accessToken.revealed(), refreshToken.revealed()] }
}
