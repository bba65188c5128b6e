public import LinkdFormats
public import LinkdRouting

/// A failed expectation about a link, with a message that says what was expected and what the link gave.
///
/// The expectations throw it, so they work from Swift Testing (`@Test func … throws`) and XCTest
/// (`func test…() throws`) alike: the thrown error fails the test with this message.
public struct LinkExpectationFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    public var description: String { message }
}

/// Expectations on the route a link gives.
public enum LinkExpectation {
    /// Expects `link` to parse and route, with the built-in formats or `format`'s rules alone, to route `id` with
    /// the given fields (compared revealed, so secrets can be checked too).
    ///
    /// - Returns: the route, for further checks.
    /// - Throws: ``LinkExpectationFailure`` naming the difference.
    @discardableResult
    public static func route(
        _ link: String,
        is id: String,
        format: AuthLinkFormat? = nil,
        fields expected: [String: String] = [:]
    ) throws(LinkExpectationFailure) -> AuthRoute {
        let route: AuthRoute
        do {
            let parsed = try LinkURL(parsing: link)
            route =
                try format.map { (format) throws(RouteError) in try format.route(parsed) } ?? AuthLinks.route(parsed)
        } catch {
            throw LinkExpectationFailure(message: "expected route '\(id)', but the link was refused: \(error)")
        }
        guard route.id == id else {
            throw LinkExpectationFailure(message: "expected route '\(id)', got '\(route.id)'")
        }
        for (name, value) in expected.sorted(by: { $0.key < $1.key }) {
            guard let actual = route.fields[name] else {
                throw LinkExpectationFailure(message: "route '\(id)' has no field '\(name)'")
            }
            guard actual.revealed() == value else {
                let shown = actual.secret == nil ? "'\(actual.revealed())'" : "a different secret"
                throw LinkExpectationFailure(message: "field '\(name)' of route '\(id)' is \(shown), not '\(value)'")
            }
        }
        return route
    }

    /// Expects `link` to be refused with `reason` (and `part`, when given).
    ///
    /// - Throws: ``LinkExpectationFailure`` when it routes, is unmatched, or is refused otherwise.
    public static func refusal(
        _ link: String,
        _ reason: RefusalReason,
        part: LinkPart? = nil,
        format: AuthLinkFormat? = nil
    ) throws(LinkExpectationFailure) {
        do {
            let parsed = try LinkURL(parsing: link)
            let route =
                try format.map { (format) throws(RouteError) in try format.route(parsed) } ?? AuthLinks.route(parsed)
            throw LinkExpectationFailure(message: "expected a '\(reason.rawValue)' refusal, got route '\(route.id)'")
        } catch let error as LinkExpectationFailure {
            throw error
        } catch let error as RouteError {
            guard let refusal = error.refusal else {
                throw LinkExpectationFailure(message: "expected a '\(reason.rawValue)' refusal, got: \(error)")
            }
            guard refusal.reason == reason, part.map({ $0 == refusal.part }) ?? true else {
                throw LinkExpectationFailure(
                    message: "expected a '\(reason.rawValue)' refusal\(part.map { " in the \($0.rawValue)" } ?? ""), "
                        + "got '\(refusal.reason.rawValue)' in the \(refusal.part.rawValue): \(refusal.message)"
                )
            }
        } catch {
            throw LinkExpectationFailure(message: "unexpected error: \(error)")
        }
    }

    /// Expects `router` to route `link` to `expected`, and `expected` to print back to a link that does too.
    ///
    /// - Throws: ``LinkExpectationFailure`` naming the difference.
    public static func route<Route: Equatable & Sendable>(
        _ link: String,
        in router: Router<Route>,
        equals expected: Route
    ) throws(LinkExpectationFailure) {
        let route: Route
        do {
            route = try router.route(link)
        } catch {
            throw LinkExpectationFailure(message: "expected \(expected), but: \(error)")
        }
        guard route == expected else { throw LinkExpectationFailure(message: "expected \(expected), got \(route)") }
        if let printed = router.link(for: expected), (try? router.route(printed)) != expected {
            throw LinkExpectationFailure(message: "\(expected) prints as '\(printed)', which does not route back to it")
        }
    }
}
