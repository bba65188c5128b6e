// The example test of the app developers' guide (`share/doc/linkd/app-developers.md`), "Testing your app's links",
// as written there.
import LinkdFormats
import LinkdRouting
import LinkdTesting
import Testing

@Test func passwordResetLinkRoutesToRecovery() throws {
    let link = LinkFixtures.supabaseSession(redirectTo: "com.example.notes://reset", type: "recovery")
    let route = try LinkExpectation.route(link, is: "supabase.recovery", format: .supabase)
    #expect(route.claims?.email == "user@example.com")
}

@Test func anExpiredLinkComesBackAsAnError() throws {
    let link = LinkFixtures.supabaseError(redirectTo: "com.example.notes://reset", code: "otp_expired")
    try LinkExpectation.route(link, is: "supabase.error", fields: ["error_code": "otp_expired"])
}

@Test func aTamperedLinkIsRefused() throws {
    try LinkExpectation.refusal("com.example.notes://reset?code=a#code=b", .conflictingParameter)
}
