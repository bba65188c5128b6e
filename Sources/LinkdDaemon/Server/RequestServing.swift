import LinkdWire

/// An action that serves requests of its own on the wire, beside `open`: the `forward` action its subscribers
/// (`{"op": "subscribe"}`), the `signin` action the `linkd login`s that wait for a sign-in from the browser
/// (`{"op": "await_signin"}`). The action set lists every action that does (``ActionSet/requestServers``), and a
/// connection hands each request that is not an `open` to them in turn.
protocol RequestServing: Sendable {
    /// Serves `request` from `connection` when it is one of this action's; `nil` when it is not.
    func serve(
        _ request: WireProtocol.Request,
        from connection: ClientConnection,
        service: LinkService
    ) async throws(WireProtocol.Failure) -> Served?
}

/// How a request an action served ended.
enum Served: Sendable {
    /// With its answer, which the connection writes before it reads the next request.
    case answer(WireProtocol.Response)
    /// The connection became the action's (a subscriber), and has ended with it.
    case keptConnection
}
