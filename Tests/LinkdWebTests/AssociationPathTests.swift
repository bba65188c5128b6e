import Testing

@testable import LinkdWeb

/// A link's path as its site means it, for matching: unreserved escapes and `%2F` decoded, runs of slashes one and
/// trailing ones dropped, the dot segments decoding made resolved, every other escape as written.
@Suite struct AssociationPathTests {
    @Test(arguments: [
        ("/account/x", "/account/x"), ("/%61ccount/x", "/account/x"), ("//account//x", "/account/x"),
        ("/account%2Fx", "/account/x"), ("/account%2fx", "/account/x"), ("/a%2F..%2Fb", "/b"),
        ("/a/%2E%2E/b", "/b"), ("/a/%2e/b", "/a/b"), ("/..%2F..%2Fetc", "/etc"), ("/", "/"), ("", "/"),
        ("//", "/"), ("/buy/", "/buy"), ("/buy//", "/buy"), ("/a%20b", "/a%20b"), ("/caf%C3%A9", "/caf%C3%A9"),
        ("/100%25", "/100%25"), ("/%7Euser", "/~user"), ("/x%2", "/x%2"), ("/%zz", "/%zz"),
    ])
    func readsAsItsSiteMeansIt(_ path: String, _ expected: String) {
        #expect(AssociationPath.normalized(path) == expected)
    }
}
