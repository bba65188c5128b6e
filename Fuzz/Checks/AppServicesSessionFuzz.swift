import LinkdFormats
import LinkdSession

extension FuzzTarget {
    /// App Services' answer to a login (`POST …/auth/providers/oauth2-apple/login`), any bytes as its 2xx body, read
    /// as the client reads it: a session, or a refusal as a bad response, never a crash; a refusal's message shows
    /// no token of the body (but for text that a refusal of a body without tokens shows as well); a session holds
    /// the body's tokens and ids and expires when its access token says, its tokens print as `<redacted>` and show
    /// nowhere in its dump but inside its ids, and what an app gets for it reads back as the same session.
    package static let appServicesSession = FuzzTarget("appservices-session") { bytes in
        let body = Array(bytes)
        let object = try? JSONValue.parse(body)
        let session: AppServicesSession
        do throws(SessionError) {
            session = try readLogin(body)
        } catch {
            guard case .badResponse = error else { fatalError("invariant broken: a login refused as \(error)") }
            let message = error.description
            for key in ["access_token", "refresh_token"] {
                guard let token = object?[key]?.stringValue, token.utf8.count >= 4, contains(message, token) else {
                    continue
                }
                require(tokenlessRefusals.contains { contains($0, token) }, "a refusal shows a token")
            }
            return
        }
        guard let object else { fatalError("invariant broken: a session from a body that is no JSON") }
        require(
            session.accessToken.revealed() == object["access_token"]?.stringValue
                && session.refreshToken.revealed() == object["refresh_token"]?.stringValue
                && session.userID == object["user_id"]?.stringValue
                && session.deviceID == object["device_id"]?.stringValue,
            "a session that is not the body's"
        )
        require(session.provider == "oauth2-apple" && session.email.isEmpty, "a session with another provider or email")
        require(JWTClaims(session.accessToken)?.expiresAt == session.expiresAt, "a session expires at another time")
        require(
            "\(session.accessToken)" == Secret.redacted && "\(session.refreshToken)" == Secret.redacted,
            "a session's token prints"
        )
        let dump = String(reflecting: session)
        for token in session.secretValues where !contains(session.userID, token) && !contains(session.deviceID, token) {
            require(!contains(dump, token), "a session's dump shows a token")
        }
        checkDelivery(of: session)
    }

    /// What an app gets for `session`: one line of JSON that reads back as the session, with its real tokens.
    private static func checkDelivery(of session: AppServicesSession) {
        let delivery = session.delivery(id: spoolID, app: "myapp", route: "apple.callback")
        require(
            delivery.last == UInt8(ascii: "\n") && !delivery.dropLast().contains(UInt8(ascii: "\n")),
            "a delivery on more than one line"
        )
        let sent = (try? JSONValue.parse(delivery.dropLast()))?["session"]
        require(
            sent?["access_token"]?.stringValue == session.accessToken.revealed()
                && sent?["refresh_token"]?.stringValue == session.refreshToken.revealed()
                && sent?["expires_at"]?.int64Value == session.expiresAt
                && sent?["provider"]?.stringValue == session.provider
                && sent?["user"]?["id"]?.stringValue == session.userID
                && sent?["user"]?["email"]?.stringValue == session.email,
            "a delivery reads back as another session"
        )
    }

    /// The session of a login's 2xx `body`, read as ``AppServicesClient/appleLogin(idToken:)`` reads it.
    private static func readLogin(_ body: [UInt8]) throws(SessionError) -> AppServicesSession {
        let response = HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: body)
        return try AppServicesSession(login: AppServicesClient.object(response), provider: "oauth2-apple")
    }

    /// The messages of the refusals of bodies that hold no token: text a refusal may show whatever the tokens.
    private static let tokenlessRefusals: [String] = [
        "", "{}", #"{"access_token":"","refresh_token":"","user_id":"","device_id":""}"#,
    ]
    .map { body in
        do throws(SessionError) {
            _ = try readLogin(Array(body.utf8))
            fatalError("a body without tokens read as a session")
        } catch {
            return error.description
        }
    }
}
