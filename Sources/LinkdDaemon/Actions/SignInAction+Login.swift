import LinkdWire

/// The `linkd login`s that wait for their sign-in from the browser (`{"op": "await_signin", "app": …}`): each is
/// registered before it is acknowledged, so that a sign-in that comes back after the answer finds it, and hears how
/// the sign-in ended.
extension SignInAction: RequestServing {
    func serve(
        _ request: WireProtocol.Request,
        from connection: ClientConnection,
        service: LinkService
    ) async throws(WireProtocol.Failure) -> Served? {
        guard case .awaitSignIn(let app, let canConfirm) = request else { return nil }
        await connection.setCanConfirm(canConfirm)
        let response = await waiters.wait(for: app, client: connection, confirms: canConfirm) {
            try? await connection.write(WireProtocol.Response.waiting(app: app).line, deadline: .now + .seconds(5))
        }
        return .answer(response)
    }
}
