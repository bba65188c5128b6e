import LinkdRouting
import Testing

enum AppRoute: Hashable, Sendable {
    case reset
    case newNote
    case note(Int)
    case noteSlug(String)
    case editNote(Int)
    case open(String)
    case search(String)
    case file(String)
    case readme
    case files(String)
    case portal
}

@Suite struct RouterTests {
    static func makeRouter() throws -> Router<AppRoute> {
        var router = Router<AppRoute>()
        try router.add("myapp://reset", build: { _ in .reset }, print: { $0 == .reset ? RouteValues() : nil })
        try router.add("myapp://note/new", build: { _ in .newNote }, print: { $0 == .newNote ? RouteValues() : nil })
        try router.add(
            "myapp://note/{id}",
            build: { match throws(RouteError) in .note(try match.capture("id")) },
            print: { if case .note(let id) = $0 { RouteValues(captures: ["id": id]) } else { nil } }
        )
        try router.add(
            "myapp://note/{slug}",
            build: { match throws(RouteError) in .noteSlug(try match.capture("slug")) },
            print: { if case .noteSlug(let slug) = $0 { RouteValues(captures: ["slug": slug]) } else { nil } }
        )
        try router.add(
            "myapp://note/{id}/edit",
            build: { match throws(RouteError) in .editNote(try match.capture("id")) },
            print: { if case .editNote(let id) = $0 { RouteValues(captures: ["id": id]) } else { nil } }
        )
        try router.add(
            "com.example.notes://open/{path...}",
            build: { match throws(RouteError) in .open(try match.capture("path")) },
            print: { if case .open(let path) = $0 { RouteValues(captures: ["path": path]) } else { nil } }
        )
        try router.add(
            "https://Notes.Example.com/search",
            build: { match throws(RouteError) in
                guard let query = match.parameter("q"), !query.isEmpty else {
                    throw .refused(.missingField, part: .query, "missing field 'q'")
                }
                return .search(query)
            },
            print: { if case .search(let query) = $0 { RouteValues(query: [("q", query)]) } else { nil } }
        )
        try router.add(
            "myapp://files/{rest...}",
            build: { match throws(RouteError) in .files(try match.capture("rest")) },
            print: { if case .files(let rest) = $0 { RouteValues(captures: ["rest": rest]) } else { nil } }
        )
        try router.add(
            "myapp://files/{name}",
            build: { match throws(RouteError) in .file(try match.capture("name")) },
            print: { if case .file(let name) = $0 { RouteValues(captures: ["name": name]) } else { nil } }
        )
        try router.add("myapp://files/readme", build: { _ in .readme }, print: { $0 == .readme ? RouteValues() : nil })
        try router.add(
            "https://portal.example.com:8443/",
            build: { _ in
                .portal
            },
            print: { $0 == .portal ? RouteValues() : nil }
        )
        return router
    }

    static let routed: [(String, AppRoute)] = [
        ("myapp://reset", .reset),
        ("myapp://reset/", .reset),
        ("myapp://reset?x=1#y=2", .reset),
        ("myapp://note/new", .newNote),
        ("myapp://note/42", .note(42)),
        ("myapp://note/42/", .note(42)),
        ("myapp://note/abc", .noteSlug("abc")),
        ("myapp://note/caf%C3%A9", .noteSlug("caf\u{E9}")),
        ("myapp://note/42/edit", .editNote(42)),
        ("com.example.notes://open/a/b/c", .open("a/b/c")),
        ("COM.EXAMPLE.NOTES://open/x", .open("x")),
        ("https://notes.example.com/search?q=hello+world", .search("hello world")),
        ("https://NOTES.example.com:443/search?q=a", .search("a")),
        ("myapp://files/readme", .readme),
        ("myapp://files/other", .file("other")),
        ("myapp://files/a/b", .files("a/b")),
        ("https://portal.example.com:8443", .portal),
    ]

    @Test(arguments: routed)
    func routesToTheTypedValue(_ text: String, _ expected: AppRoute) throws {
        let router = try Self.makeRouter()
        #expect(try router.route(text) == expected)
    }

    @Test(arguments: routed)
    func printsBackToALinkThatRoutesToTheSameValue(_ text: String, _ expected: AppRoute) throws {
        let router = try Self.makeRouter()
        let link = try #require(router.link(for: expected))
        #expect(try router.route(link) == expected)
        #expect(try router.route(LinkURL(parsing: link.href)) == expected)
    }

    @Test(arguments: [AppRoute.open("a b/c?d#e"), .noteSlug("x/y"), .search("a&b=c+d%"), .files("\u{E9}/+")])
    func printsValuesThatNeedEncoding(_ route: AppRoute) throws {
        let router = try Self.makeRouter()
        let link = try #require(router.link(for: route))
        #expect(try router.route(link) == route)
    }

    @Test func literalBeatsCaptureBeatsRestThenDeclarationOrder() throws {
        var router = Router<String>()
        try router.add("myapp://x/{rest...}") { _ in "rest" }
        try router.add("myapp://x/{first}") { _ in "first capture" }
        try router.add("myapp://x/{second}") { _ in "second capture" }
        try router.add("myapp://x/lit") { _ in "literal" }
        #expect(try router.route("myapp://x/lit") == "literal")
        #expect(try router.route("myapp://x/other") == "first capture")
        #expect(try router.route("myapp://x/a/b") == "rest")
    }

    @Test func declarationOrderRanksByDeclarationAloneAndStillFallsThrough() throws {
        var router = Router<String>(precedence: .declarationOrder)
        try router.add("myapp://x/{id}") { match throws(RouteError) in "number \(try match.capture("id", as: Int.self))"
        }
        try router.add("myapp://x/{rest...}") { match throws(RouteError) in
            "rest \(try match.capture("rest", as: String.self))"
        }
        try router.add("myapp://x/lit") { _ in "literal" }
        #expect(try router.route("myapp://x/7") == "number 7")
        // The first declared refuses `lit` (not a number): the next declared, not the literal, gets it.
        #expect(try router.route("myapp://x/lit") == "rest lit")
        #expect(try router.route("myapp://x/a%2Fb/c/") == "rest a/b/c")
    }

    @Test func triesEachCandidateInTurnUntilABuilderTakesTheLink() throws {
        var router = Router<String>()
        try router.add("myapp://x/{a}/{b}") { match throws(RouteError) in
            "ints \(try match.capture("a", as: Int.self)) \(try match.capture("b", as: Int.self))"
        }
        try router.add("myapp://x/{a}/{b}") { match throws(RouteError) in
            "flag \(try match.capture("b", as: Bool.self))"
        }
        try router.add("myapp://x/{rest...}") { match throws(RouteError) in
            "rest \(try match.capture("rest", as: String.self))"
        }
        #expect(try router.route("myapp://x/1/2") == "ints 1 2")
        #expect(try router.route("myapp://x/1/true") == "flag true")
        #expect(try router.route("myapp://x/1/b") == "rest 1/b")
        #expect(try router.route("myapp://x/caf%C3%A9/") == "rest café")
    }

    @Test func backtracksWhenADeeperLiteralBranchFails() throws {
        var router = Router<String>()
        try router.add("myapp://a/b/c") { _ in "abc" }
        try router.add("myapp://a/{x}/d") { _ in "a-x-d" }
        #expect(try router.route("myapp://a/b/d") == "a-x-d")
    }

    @Test func comparesCustomHostsWithCaseAndSpecialHostsWithout() throws {
        var router = Router<String>()
        try router.add("myapp://Reset") { _ in "custom" }
        try router.add("https://APP.example.com/reset") { _ in "universal" }
        #expect(try router.route("myapp://Reset") == "custom")
        #expect(throws: RouteError.self) { try router.route("myapp://reset") }
        #expect(try router.route("https://app.EXAMPLE.com/reset") == "universal")
    }

    @Test func aBuilderRefusalOutsideThePathIsTheLinksFault() throws {
        let router = try Self.makeRouter()
        #expect(throws: RouteError.refused(.missingField, part: .query, "missing field 'q'")) {
            try router.route("https://notes.example.com/search")
        }
    }

    @Test func refusesConflictingParametersBeforeMatching() throws {
        let router = try Self.makeRouter()
        #expect(throws: RouteError.refused(.conflictingParameter, part: .fragment, "conflicting parameter 'q'")) {
            try router.route("https://notes.example.com/search?q=a#q=b")
        }
    }

    private func explanation(_ text: String, in router: Router<AppRoute>) -> RouteExplanation? {
        do {
            _ = try router.route(text)
            return nil
        } catch {
            if case .unmatched(let explanation) = error { return explanation }
            return nil
        }
    }

    @Test func explainsTheNearestCandidates() throws {
        var router = Router<AppRoute>()
        try router.add("myapp://note/{id}") { match throws(RouteError) in .note(try match.capture("id")) }
        try router.add("myapp://note/{id}/edit") { match throws(RouteError) in .editNote(try match.capture("id")) }
        try router.add("myapp://reset") { _ in .reset }
        try router.add("otherapp://reset") { _ in .reset }

        let typed = try #require(explanation("myapp://note/abc?token=secret", in: router))
        #expect(typed.link == "myapp://note/abc")
        #expect(
            typed.candidates.first
                == .init(
                    pattern: "myapp://note/{id}",
                    mismatch: .refused(LinkRefusal(.badValue, part: .path, "capture 'id' is not a valid Int: 'abc'"))
                )
        )
        #expect(typed.candidates.count == 3)
        #expect(!typed.description.contains("secret"))

        let segment = try #require(explanation("myapp://note/7/delete", in: router))
        #expect(
            segment.candidates.prefix(2).map(\.mismatch) == [
                .extraSegment(index: 2, actual: "delete"), .segment(index: 2, expected: "edit", actual: "delete"),
            ]
        )

        let missing = try #require(explanation("myapp://note", in: router))
        #expect(missing.candidates.first?.mismatch == .missingSegment(index: 1, expected: "{id}"))

        let extra = try #require(explanation("myapp://reset/now", in: router))
        #expect(extra.candidates.first?.mismatch == .extraSegment(index: 1, actual: "now"))

        let host = try #require(explanation("myapp://settings", in: router))
        #expect(host.candidates.allSatisfy { if case .host = $0.mismatch { true } else { false } })

        let scheme = try #require(explanation("thirdapp://reset", in: router))
        #expect(scheme.candidates.first?.mismatch == .scheme(expected: "myapp", actual: "thirdapp"))
        #expect(
            scheme.description
                == "no route for 'thirdapp://reset'; nearest: 'myapp://note/{id}': scheme is 'thirdapp', not 'myapp'; "
                + "'myapp://note/{id}/edit': scheme is 'thirdapp', not 'myapp'; "
                + "'myapp://reset': scheme is 'thirdapp', not 'myapp'"
        )
    }

    @Test func explainsPortMismatchAndAnEmptyRouter() throws {
        var router = Router<AppRoute>()
        try router.add("https://portal.example.com:8443/") { _ in .portal }
        let port = try #require(explanation("https://portal.example.com/", in: router))
        #expect(
            port.candidates == [
                .init(pattern: "https://portal.example.com:8443/", mismatch: .port(expected: "8443", actual: ""))
            ]
        )
        let empty = try #require(explanation("myapp://x", in: Router<AppRoute>()))
        #expect(empty.candidates.isEmpty)
        #expect(empty.description == "no route for 'myapp://x'")
    }

    @Test(arguments: [
        ("myapp://reset?x=1", "a pattern has no query or fragment"),
        ("myapp:reset", "a pattern starts with 'scheme://'"),
        ("myapp://x/{a}/{a}", "capture 'a' appears twice"),
        ("myapp://x/{rest...}/y", "'{rest...}' must be the last segment"),
        ("myapp://x/a{b}", "a capture is a whole segment: 'a{b}'"),
        ("myapp://x/{1a}", "'1a' is not a capture name"),
        ("javascript://x", "the scheme 'javascript' is never a link"),
        ("https://user@x.example/", "a link must not carry userinfo ('user@' before the host)"),
    ])
    func refusesMalformedPatterns(_ pattern: String, _ problem: String) {
        #expect(throws: RouteError.invalidPattern(pattern: pattern, problem: problem)) {
            try RoutePattern(pattern)
        }
    }

    @Test func scalesToAThousandPatternsWithTheSameAnswers() throws {
        var router = Router<Int>()
        for index in 0..<1_000 {
            try router.add("app\(index % 10)://host\(index / 10)/item/{id}/v\(index)") { match throws(RouteError) in
                index * 1_000_000 + (try match.capture("id", as: Int.self))
            }
        }
        #expect(try router.route("app7://host99/item/5/v997") == 997_000_005)
        #expect(try router.route("app0://host0/item/1/v0") == 1)
        #expect(throws: RouteError.self) { try router.route("app7://host99/item/5/v996") }
    }
}
