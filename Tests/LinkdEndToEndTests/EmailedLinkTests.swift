import Foundation
import LinkdTestSupport
import Testing

/// The link exactly as the backend emailed it, which a mutt user copies: linkd makes the verify request itself,
/// follows no redirect, and goes on with the link the backend sends it to — a link of the same app, or nothing.
@Suite(.ownThread) struct EmailedLinkTests {
    private func emailed(_ reset: ResetWorld, token: String, redirect: String = "resetapp://reset") -> String {
        "\(reset.gotrue.baseURL)/auth/v1/verify?token=\(token)&type=recovery&redirect_to=\(redirect)"
    }

    @Test func theEmailedVerifyLinkEndsInAChangedPassword() throws {
        let reset = try ResetWorld()
        let hash = try #require(reset.gotrue.recoveryTokenHash(for: "ada@example.com"))
        let link = emailed(reset, token: hash)
        let opened = try reset.open(link, password: "Canary-pass-7f3a9")
        #expect(opened.status == 0, "\(opened)")
        #expect(
            opened.stdout
                == "done: supabase.recovery → com.example.Reset: the password of a***@example.com was changed\n"
        )
        #expect(reset.gotrue.password(of: "ada@example.com") == "Canary-pass-7f3a9")
        #expect(
            reset.gotrue.requestLines.map { $0.components(separatedBy: "?")[0] } == [
                "GET /auth/v1/verify", "GET /auth/v1/user", "PUT /auth/v1/user", "POST /auth/v1/logout",
            ]
        )
        #expect(!reset.leakSurfaces().contains(hash))
    }

    @Test func aUsedEmailedLinkIsTheLinkExpiring() throws {
        let reset = try ResetWorld()
        let link = emailed(reset, token: "0123456789abcdef")
        let opened = try reset.open(link, password: "Canary-pass-7f3a9")
        #expect(opened.status == 65)
        #expect(
            opened.stderr
                == "Error: link 1: this link has expired or was already used; request a new email (otp_expired) "
                + "[link_expired]\n"
        )
        #expect(reset.gotrue.password(of: "ada@example.com") == "old-password")
    }

    @Test func aRedirectToALinkOfNoAppOfTheBackendIsRefusedNamingIt() throws {
        let reset = try ResetWorld()
        // The link names the app's own link, which the project does not allow: the backend sends it to its site.
        reset.gotrue.allowRedirects(only: [], siteURL: "https://evil.example/x")
        let hash = try #require(reset.gotrue.recoveryTokenHash(for: "ada@example.com"))
        let opened = try reset.open(emailed(reset, token: hash), password: "pw-12345678")
        #expect(opened.status == 65)
        #expect(
            opened.stderr.hasPrefix(
                "Error: link 1: the backend '127.0.0.1' sends this link to 'https://evil.example/x#"
            )
        )
        #expect(opened.stderr.hasSuffix(", which is not a link of com.example.Reset [foreign_redirect]\n"), "\(opened)")
        #expect(!opened.stderr.contains("refresh_token=") || opened.stderr.contains("<redacted>"))
        #expect(reset.gotrue.requestLines.count == 1, "nothing but the verify request")
    }

    /// A verify link whose `redirect_to` is no link of an app (the project's website, or none at all) is decided
    /// from the link alone: no app's, and no request spends it.
    @Test(arguments: ["https://evil.example/x", "https://notes.example.com/welcome", nil])
    func aLinkForTheWebsiteIsNoAppsAndIsNotSpent(_ redirect: String?) throws {
        let reset = try ResetWorld()
        let hash = try #require(reset.gotrue.recoveryTokenHash(for: "ada@example.com"))
        let link =
            "\(reset.gotrue.baseURL)/auth/v1/verify?token=\(hash)&type=recovery"
            + (redirect.map { "&redirect_to=" + $0 } ?? "")
        let opened = try reset.open(link, password: "pw-12345678")
        #expect(opened.status == 1)
        #expect(opened.stderr == "Error: link 1: no app claims links to host '127.0.0.1' [no_app]\n")
        #expect(reset.gotrue.requests.isEmpty)
        // Still good: the same token at the app's own link resets the password.
        #expect(try reset.open(emailed(reset, token: hash), password: "Canary-pass-3b8e").status == 0)
        #expect(reset.gotrue.password(of: "ada@example.com") == "Canary-pass-3b8e")
    }

    @Test func anHttpsLinkOfAHostNoAppUsesIsStillUnclaimedByHost() throws {
        let reset = try ResetWorld()
        let opened = try reset.open("https://other.supabase.co/auth/v1/verify?token=t&type=recovery", password: "pw")
        #expect(opened.status == 1)
        #expect(opened.stderr == "Error: link 1: no app claims links to host 'other.supabase.co' [no_app]\n")
        #expect(reset.gotrue.requests.isEmpty)
    }
}
