import Foundation
import LinkdConfig
import Testing

/// Each problem of a broken app file, with the line and column of the value it is about and its JSON path.
@Suite struct ConfigErrorTests {
    /// A file's text, and its problems as `LINE:COLUMN: PATH: problem`.
    static let broken: [(String, [String])] = [
        ("{", ["1:2: $: not valid JSON: expected a key"]),
        (
            """
            {"app": "a.b",
             "links": [],
            }
            """,
            ["2:13: $: not valid JSON: a comma before '}'"]
        ),
        (#"{"app": "a.b", "links": [1, 2,]}"#, ["1:30: $: not valid JSON: a comma before ']'"]),
        (#"{"app" "a.b"}"#, ["1:8: $: not valid JSON: expected ':'"]),
        ("[]", ["1:1: $: expected an object"]),
        (
            #"{"links": [{"match": "x://y", "action": "forward"}]}"#,
            ["1:1: $.app: missing"]
        ),
        (
            """
            {"app": "a.b", "nöte": 1, "extra": 2,
             "links": [{"match": "x://y", "action": "forward"}]}
            """,
            ["1:16: $.nöte: unknown key", "1:27: $.extra: unknown key"]
        ),
        (
            """
            {"app": "a.b", "links": [
              {"match": "x://y", "action": "forward"},
              {"match": "x://z", "acton": "forward"}]}
            """,
            ["3:3: $.links[1].action: missing", "3:22: $.links[1].acton: unknown key; did you mean 'action'?"]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "format": "okta", "action": "forward"}]}"#,
            ["1:55: $.links[0].format: expected one of 'supabase', 'appservices', 'firebase', 'oauth', 'apple'"]
        ),
        (
            """
            {"app": "a.b", "links": [{"match": "x://y",
              "action": {"exec": ["/bin/sh", "%u", "--to={link}", "%F"]}}]}
            """,
            [
                "2:34: $.links[0].action.exec[1]: '%u' is passed as written: the program gets the link as JSON on "
                    + "standard input, never in argv",
                "2:40: $.links[0].action.exec[2]: '{link}' is passed as written: the program gets the link as JSON on "
                    + "standard input, never in argv",
                "2:55: $.links[0].action.exec[3]: '%F' is passed as written: the program gets the link as JSON on "
                    + "standard input, never in argv",
            ]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "action": {"exec": ["/bin/sh", "-c", "cat > ${HOME}/x", "100%"]}}]}"#,
            []
        ),
        (
            """
            {"app": "a.b", "links": [{"match": "x://y", "format": "supabase", "action": "reset"}],
             "backend": {"kind": "supabase", "url": "https://abcd.supabase.co/auth/v1/", "apiKey": "k"}}
            """,
            ["2:41: $.backend.url: ends in '/auth/v1/', which linkd appends: use 'https://abcd.supabase.co'"]
        ),
        (
            """
            {"app": "a.b", "links": [{"match": "x://y", "format": "appservices", "action": "reset"}],
             "backend": {"kind": "appservices", "url": "http://127.0.0.1:9000/api/client/v2.0/app/n-1", "appId": "n-1"}}
            """,
            [
                "2:44: $.backend.url: ends in '/api/client/v2.0/app/n-1', which linkd appends: use 'http://127.0.0.1:9000'"
            ]
        ),
        (
            """
            {"app": "a.b", "links": [{"match": "x://y", "format": "supabase", "action": "reset"}],
             "backend": {"kind": "appservices", "url": "https://h.example", "appId": "n-1"}}
            """,
            ["2:13: $.backend: a 'appservices' backend cannot reset 'supabase' links"]
        ),
        (
            """
            {"app": "a.b", "links": [{"match": "x://y", "action": "reset"}],
             "backend": {"kind": "supabase", "url": "https://h.example", "apiKey": "k"}}
            """,
            ["1:26: $.links[0].format: action 'reset' needs format 'supabase' or 'appservices'"]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "format": "supabase", "action": {"signin": {"exec": ["/bin/cat"]}}}], "backend": {"kind": "supabase", "url": "https://h.example", "apiKey": "k"}}"#,
            []
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "format": "supabase", "action": {"signin": "forward"}}], "backend": {"kind": "supabase", "url": "https://h.example", "apiKey": "k"}}"#,
            []
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "format": "supabase", "action": {"signin": "dbus"}}], "backend": {"kind": "supabase", "url": "https://h.example", "apiKey": "k"}}"#,
            [#"1:88: $.links[0].action.signin: expected {"exec": [argv…]} or "forward": where the session goes"#]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "action": {"signin": {"exec": ["/bin/cat"]}}}], "backend": {"kind": "supabase", "url": "https://h.example", "apiKey": "k"}}"#,
            ["1:26: $.links[0].format: action 'signin' needs format 'supabase', 'appservices' or 'apple'"]
        ),
        (
            """
            {"app": "a.b", "links": [{"match": "x://y", "format": "supabase", "action": {"signin": {"exec": ["/bin/cat"]}}}],
             "backend": {"kind": "appservices", "url": "https://h.example", "appId": "n-1"}}
            """,
            ["2:13: $.backend: a 'appservices' backend cannot sign in with 'supabase' links"]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://confirm", "format": "appservices", "action": {"signin": "forward"}}], "backend": {"kind": "appservices", "url": "https://h.example", "appId": "n-1"}}"#,
            []
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://confirm", "format": "appservices", "action": {"signin": "forward"}}], "backend": {"kind": "supabase", "url": "https://h.example", "apiKey": "k"}}"#,
            ["1:122: $.backend: a 'supabase' backend cannot sign in with 'appservices' links"]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://apple", "format": "apple", "action": {"signin": "forward"}}], "backend": {"kind": "supabase", "url": "https://h.example", "apiKey": "k"}, "apple": {"clientId": "com.example.web", "redirectUri": "https://example.com/apple"}}"#,
            []
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://apple", "format": "apple", "action": {"signin": "forward"}}], "backend": {"kind": "supabase", "url": "https://h.example", "apiKey": "k"}}"#,
            ["1:59: $.links[0].format: an 'apple' sign-in link needs the app's 'apple' settings"]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://apple", "format": "apple", "action": {"signin": "forward"}}], "backend": {"kind": "appservices", "url": "https://h.example", "appId": "n-1"}, "apple": {"clientId": "c", "redirectUri": "https://example.com/a"}}"#,
            []
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "action": "forward"}], "apple": {"clientId": "a b", "redirectUri": "http://example.com/a", "authorizeUrl": "https://appleid.apple.com/auth/authorize#x"}}"#,
            [
                "1:90: $.apple.clientId: expected the Apple Services ID, without spaces",
                "1:112: $.apple.redirectUri: Apple and the Return URL are reached over https (plain http only for 127.0.0.1, ::1 or localhost)",
                "1:152: $.apple.authorizeUrl: an address Apple is given has no fragment",
            ]
        ),
        (#"{"app": "a.b", "links": [{"match": "x://y", "action": {"forward": {"start": "desktop"}}}]}"#, []),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "action": {"forward": {"start": "dbus", "x": 1}}}]}"#,
            [
                #"1:77: $.links[0].action.forward.start: expected "desktop""#,
                "1:85: $.links[0].action.forward.x: unknown key",
            ]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "action": {"forward": "desktop"}}]}"#,
            [#"1:67: $.links[0].action.forward: expected {"start": "desktop"}"#]
        ),
        (
            #"{"app": "a.b", "links": [{"match": "x://y", "action": "forward"}], "backend": {"kind": "supabase", "url": "https://h.example", "apikey": "k"}}"#,
            ["1:79: $.backend.apiKey: missing", "1:128: $.backend.apikey: unknown key; did you mean 'apiKey'?"]
        ),
    ]

    @Test(arguments: broken.indices)
    func placesEachProblemAtItsValue(_ row: Int) throws {
        let (text, expected) = Self.broken[row]
        let tree = try TempTree()
        try tree.write("apps.d/app.json", text)
        let result = tree.loader(try tree.folder("apps.d")).load()
        #expect(result.errors.map { "\($0.position): \($0.path): \($0.problem)" } == expected)
        #expect(result.apps.count == (expected.isEmpty ? 1 : 0))
    }

    @Test func printsFileLineColumnPathAndProblem() {
        let error = ConfigError(
            file: "/etc/linkd/apps.d/a.json",
            position: TextPosition(line: 3, column: 17),
            path: "$.links[1].acton",
            problem: "unknown key"
        )
        #expect(error.description == "/etc/linkd/apps.d/a.json:3:17: $.links[1].acton: unknown key")
        #expect(ConfigError(file: "f", path: "$", problem: "cannot be read").description == "f:1:1: $: cannot be read")
    }
}
