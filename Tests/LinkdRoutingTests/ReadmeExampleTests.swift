import LinkdRouting
import Testing

/// The example of the app developers' guide (`share/doc/linkd/app-developers.md`), "Routing links in your own app",
/// as written there.
@Suite struct ReadmeExampleTests {
    enum NotesRoute: Hashable, Sendable {
        case reset
        case note(Int)
    }

    @Test func routesAndPrintsAsTheReadmeSays() throws {
        var router = Router<NotesRoute>()
        try router.add("com.example.notes://reset") { _ in .reset }
        try router.add(
            "com.example.notes://note/{id}",
            build: { match throws(RouteError) in .note(try match.capture("id")) },
            print: { route in if case .note(let id) = route { RouteValues(captures: ["id": id]) } else { nil } }
        )
        #expect(try router.route("com.example.notes://note/7") == .note(7))
        #expect(router.link(for: .note(7))?.href == "com.example.notes://note/7")
        #expect(
            throws: RouteError.unmatched(
                RouteExplanation(
                    link: "com.example.notes://note/abc",
                    candidates: [
                        .init(
                            pattern: "com.example.notes://note/{id}",
                            mismatch: .refused(
                                LinkRefusal(.badValue, part: .path, "capture 'id' is not a valid Int: 'abc'")
                            )
                        ),
                        .init(pattern: "com.example.notes://reset", mismatch: .host(expected: "reset", actual: "note")),
                    ]
                )
            )
        ) { try router.route("com.example.notes://note/abc") }
    }
}
