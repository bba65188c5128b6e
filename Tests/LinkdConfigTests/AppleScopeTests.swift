import LinkdConfig
import Testing

/// `apple.scope`: what Apple is asked to share at the first sign-in, read and checked.
@Suite struct AppleScopeTests {
    private func decode(_ scope: String?) -> (AppConfig?, [String]) {
        let member = scope.map { #", "scope": \#($0)"# } ?? ""
        let text = #"""
            {"app": "com.example.Notes", "links": [{"match": "x://apple", "format": "apple", "action": {"signin": "forward"}}],
             "backend": {"kind": "supabase", "url": "https://h.example", "apiKey": "k"},
             "apple": {"clientId": "com.example.web", "redirectUri": "https://example.com/apple"\#(member)}}
            """#
        var decoder = AppConfigDecoder(file: "notes.json", programs: ProgramSearch(directories: []), actions: .linkd)
        let app = decoder.decode(Array(text.utf8))
        return (app, decoder.errors.map { "\($0.path): \($0.problem)" })
    }

    @Test(
        arguments: [
            (nil, ["name", "email"]), (#""name email""#, ["name", "email"]), (#""email""#, ["email"]),
            (#""email name""#, ["email", "name"]), (#""""#, []),
        ] as [(String?, [String])]
    )
    func aScopeOfApplesWordsIsRead(_ scope: String?, _ expected: [String]) throws {
        let (app, errors) = decode(scope)
        #expect(errors.isEmpty)
        #expect(try #require(app?.apple).scope == expected)
    }

    @Test(arguments: [#""openid email""#, #""name name""#, #""name  email""#, #"" email""#, #"["email"]"#])
    func anyOtherScopeIsNamedAndTheAppDoesNotLoad(_ scope: String) {
        let (app, errors) = decode(scope)
        #expect(app == nil)
        #expect(errors.count == 1 && errors[0].hasPrefix("$.apple.scope: "), "\(errors)")
    }
}
