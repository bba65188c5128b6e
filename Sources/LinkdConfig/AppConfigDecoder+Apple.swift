import LinkdFormats
import LinkdRouting

extension AppConfigDecoder {
    /// `"apple": {"clientId", "redirectUri", "authorizeUrl"?}`: both addresses https (plain http only for 127.0.0.1,
    /// ::1 or localhost), with no fragment.
    mutating func appleConfig(_ object: JSONValue, at path: String) -> AppleConfig? {
        guard object.objectMembers != nil else {
            fail(path, "expected an object")
            return nil
        }
        checkKeys(object, allowed: ["clientId", "redirectUri", "authorizeUrl"], at: path)
        let clientID = string(object["clientId"], at: "\(path).clientId")
        if let clientID, clientID.isEmpty || clientID.contains(where: { $0.isWhitespace || $0.isNewline }) {
            fail("\(path).clientId", "expected the Apple Services ID, without spaces")
        }
        let redirect = webAddress(object["redirectUri"], at: "\(path).redirectUri")
        let authorize =
            object["authorizeUrl"] == nil
            ? AppleConfig.defaultAuthorizeURL : webAddress(object["authorizeUrl"], at: "\(path).authorizeUrl")
        guard let clientID, let redirect, let authorize else { return nil }
        return AppleConfig(clientID: clientID, redirectURI: redirect, authorizeURL: authorize)
    }

    /// An https address (plain http only for a loopback host) with no fragment, as written.
    private mutating func webAddress(_ value: JSONValue?, at path: String) -> String? {
        guard let url = secureAddress(value, at: path, reached: "Apple and the Return URL are reached") else {
            return nil
        }
        guard url.fragment == nil else {
            fail(path, "an address Apple is given has no fragment")
            return nil
        }
        return value?.stringValue
    }
}
