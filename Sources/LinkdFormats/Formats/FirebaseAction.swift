import LinkdRouting

/// A Firebase Auth email action link (`…?mode=resetPassword&oobCode=…&apiKey=…`): route `firebase.action`.
public struct FirebaseAction: Sendable, Hashable {
    /// The action the link asks for.
    public enum Mode: String, Sendable, CaseIterable {
        case resetPassword, verifyEmail, recoverEmail, signIn, verifyAndChangeEmail, revertSecondFactorAddition
    }

    public var mode: Mode
    public var oobCode: Secret
    public var apiKey: Secret
    public var continueURL: String?
    public var lang: String?
    public var tenantID: String?

    /// The fields by wire name, in the order of the format's table.
    public var fields: RouteFields {
        RouteFields(
            [
                ("mode", .text(mode.rawValue)), ("oobCode", .secret(oobCode)), ("apiKey", .secret(apiKey)),
            ]
                + [("continueUrl", continueURL), ("lang", lang), ("tenantId", tenantID)].compactMap { name, value in
                    value.map { (name, FieldValue.text($0)) }
                }
        )
    }

    init(_ reader: FieldReader) throws(RouteError) {
        mode = try Mode(rawValue: reader.oneOf("mode", Mode.allCases.map(\.rawValue))) ?? .resetPassword
        oobCode = try reader.secret("oobCode")
        apiKey = try reader.secret("apiKey")
        continueURL = reader.optional("continueUrl")
        lang = reader.optional("lang")
        tenantID = reader.optional("tenantId")
    }
}
