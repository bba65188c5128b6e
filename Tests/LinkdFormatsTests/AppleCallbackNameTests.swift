import Foundation
import LinkdFormats
import LinkdRouting
import Testing

/// The name in a Sign in with Apple callback's `user` field, which Apple sends at the first sign-in only.
struct AppleCallbackNameTests {
    static func name(_ user: String?) throws -> PersonName? {
        let field = user.map { "&user=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") }
        let link = try LinkURL(parsing: "myapp://apple?code=c1.0.abc&state=s1" + (field ?? ""))
        guard case .appleCallback(let callback) = try AuthLinkFormat.apple.route(link) else {
            Issue.record("not an Apple callback")
            return nil
        }
        return callback.name
    }

    @Test func theNameApplesUserFieldGivesIsRead() throws {
        let user = #"{"name":{"firstName":"Ada","lastName":"Lovelace"},"email":"ada@example.com"}"#
        #expect(try Self.name(user) == PersonName(firstName: "Ada", lastName: "Lovelace"))
        #expect(try Self.name(#"{"name":{"firstName":"Ada"}}"#) == PersonName(firstName: "Ada", lastName: nil))
        #expect(PersonName(firstName: "Ada", lastName: nil).json.serialized == #"{"firstName": "Ada"}"#)
    }

    @Test(arguments: [#"{}"#, #"{"email":"a@b.c"}"#, #"{"name":{}}"#, #"{"name":"Ada"}"#, "not json"])
    func noNameIsReadWhereAppleGaveNone(_ user: String) throws {
        #expect(try Self.name(user) == nil)
    }
}
