import LinkdRouting

/// An Atlas App Services reset or confirmation link (`…?token=…&tokenId=…`): route `appservices.reset` or
/// `appservices.confirm`.
public struct AppServicesToken: Sendable, Hashable {
    public var token: Secret
    public var tokenID: Secret

    public var fields: RouteFields { RouteFields([("token", .secret(token)), ("tokenId", .secret(tokenID))]) }

    init(_ reader: FieldReader) throws(RouteError) {
        token = try reader.secret("token")
        tokenID = try reader.secret("tokenId")
    }
}
