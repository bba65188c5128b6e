import LinkdSession
import Testing

/// The scope in the address of Apple's authorization page that `linkd login --provider apple` opens.
struct AppleScopeAddressTests {
    @Test func theAddressAsksForTheScopeOrLeavesItOut() {
        let client = { (scope: [String]) in
            AppleSignInRequest.Client(
                authorizeURL: "https://appleid.apple.com/auth/authorize",
                clientID: "com.example.web",
                redirectURI: "https://example.com/apple",
                scope: scope
            )
        }
        #expect(AppleSignInRequest.authorizeURL(client(["email"]), secret: "s").contains("&scope=email&state="))
        #expect(
            AppleSignInRequest.authorizeURL(client(["name", "email"]), secret: "s").contains("&scope=name%20email&")
        )
        #expect(!AppleSignInRequest.authorizeURL(client([]), secret: "s").contains("scope"))
    }
}
