package import LinkdFormats
import LinkdSystem

extension AppServicesClient {
    /// `POST …/auth/providers/oauth2-apple/login {"provider", "id_token", "options": {"device"}}` with no
    /// Authorization (contract B.7, realm-core's `AppCredentials::apple` and `attach_auth_options`): the session of an
    /// Apple id token. Nothing else goes to App Services: no nonce (linkd checked it), no code, no name.
    ///
    /// linkd sends it to the `url` of the app's backend, not to the `hostname` of a `GET …/location` first, as
    /// realm-core does: the configured address is the one the person trusts.
    ///
    /// - Throws: the backend's refusal (`AuthError` for a token it does not accept), a login it cannot read, or why
    ///   there was no answer.
    package func appleLogin(idToken: Secret) async throws(SessionError) -> AppServicesSession {
        let body = JSONValue.object([
            ("provider", .string("oauth2-apple")), ("id_token", .string(idToken.revealed())),
            ("options", .object([("device", device)])),
        ])
        let response = try await send("POST", providerURL("oauth2-apple") + "/login", body: body, secrets: [idToken])
        return try AppServicesSession(login: Self.object(response), provider: "oauth2-apple")
    }

    /// `GET <url>/api/client/v2.0/auth/profile` with the session's access token: the email its profile names
    /// (`data.email`), empty when none.
    package func profileEmail(of session: AppServicesSession) async throws(SessionError) -> String {
        let response = try await send("GET", clientURL + "/auth/profile", bearer: session.accessToken)
        return try Self.object(response)["data"]?["email"]?.stringValue ?? ""
    }

    /// `DELETE <url>/api/client/v2.0/auth/session` with the session's refresh token: ends the session (B.6).
    package func signOut(_ session: AppServicesSession) async throws(SessionError) {
        _ = try await send("DELETE", clientURL + "/auth/session", bearer: session.refreshToken)
    }

    /// What realm-core sends as a login's `options.device`, from what linkd knows: the app id, `Linux` and the
    /// kernel's release, `linkd`, and the machine's architecture; the keys it has no value for are empty.
    var device: JSONValue {
        let system = Machine.current
        let (release, machine) = (system.kernelRelease, system.architecture)
        let empty = ["sdkVersion", "deviceName", "deviceVersion", "frameworkName", "frameworkVersion", "coreVersion"]
        return .object(
            [
                ("appId", .string(appID)), ("platform", .string("Linux")), ("platformVersion", .string(release)),
                ("sdk", .string("linkd")), ("cpuArch", .string(machine)),
            ] + empty.map { ($0, .string("")) } + [("bundleId", .string(""))]
        )
    }

    /// The JSON object of a 2xx answer's body.
    ///
    /// - Throws: ``SessionError/badResponse(_:)`` naming the status when the body is no JSON object.
    package static func object(_ response: HTTPResponse) throws(SessionError) -> JSONValue {
        guard let value = try? JSONValue.parse(response.body), value.objectMembers != nil else {
            throw .badResponse("HTTP \(response.status) without a JSON object")
        }
        return value
    }
}
