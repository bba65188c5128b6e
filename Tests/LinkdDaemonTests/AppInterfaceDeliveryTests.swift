import LinkdSystem
import Testing

@testable import LinkdDaemon

/// The signals the apps' interface makes of the `forward` queue's lines.
@Suite struct AppInterfaceDeliveryTests {
    @Test func aLinksLineIsALinkSignalWithItsFieldsAsText() throws {
        let line =
            #"{"id": "e1", "app": "com.example.Notes", "route": "notes://note/{id}", "fields": {"id": "7", "expires_in": 3600, "flag": true}, "url": "notes://note/7?expires_in=3600"}"#
        let (member, arguments) = try #require(Delivery.signal(for: line))
        #expect(member == "Link")
        #expect(
            arguments == [
                .string("e1"), .string("notes://note/{id}"),
                .dictionary(["id": "7", "expires_in": "3600", "flag": "true"]),
                .string("notes://note/7?expires_in=3600"), .dictionary([:]),
            ]
        )
    }

    @Test func aSessionsLineIsASessionSignalWithTheUserFlattened() throws {
        let line =
            #"{"id": "e2", "app": "a", "route": "supabase.pkce", "session": {"access_token": "AT", "refresh_token": "RT", "expires_at": 1700000000, "token_type": "bearer", "provider": "email", "user": {"id": "u1", "email": "ada@example.com"}}, "backend": "supabase"}"#
        let (member, arguments) = try #require(Delivery.signal(for: line))
        #expect(member == "Session")
        #expect(
            arguments == [
                .string("e2"), .string("supabase.pkce"), .string("supabase"),
                .dictionary([
                    "access_token": "AT", "refresh_token": "RT", "expires_at": "1700000000", "token_type": "bearer",
                    "provider": "email", "user_id": "u1", "user_email": "ada@example.com",
                ]), .dictionary([:]),
            ]
        )
    }

    @Test func aLineThatIsNeitherIsNoSignal() {
        #expect(Delivery.signal(for: "not json") == nil)
        #expect(Delivery.signal(for: #"{"id": "e3", "route": "r"}"#) == nil)
        #expect(Delivery.signal(for: #"{"id": "e3", "route": "r", "session": {}}"#) == nil)  // no backend
    }
}
