import LinkdSystem
import Testing

/// The names linkd gives the units of its programs, as `systemd-escape` and the bus spell them.
@Suite struct TransientUnitNameTests {
    @Test(arguments: [
        ("com.example.Notes", "com.example.Notes"), ("org.example.my-app", #"org.example.my\x2dapp"#),
        (".hidden", #"\x2ehidden"#), ("a/b c", #"a-b\x20c"#), ("ünï", #"\xc3\xbcn\xc3\xaf"#),
    ])
    func appIDsAreEscapedAsSystemdEscapeDoes(_ appID: String, _ escaped: String) {
        #expect(TransientUnit.escape(appID) == escaped)
    }

    @Test func aNameIsTheDesktopConventionWithSixteenRandomHexDigits() throws {
        let first = TransientUnit.name(forApp: "org.example.my-app")
        let match = try #require(first.wholeMatch(of: /app-linkd-org\.example\.my\\x2dapp@([0-9a-f]{16})\.service/))
        #expect(match.output.1.count == 16)
        #expect(TransientUnit.name(forApp: "org.example.my-app") != first, "each program its own unit")
    }
}
