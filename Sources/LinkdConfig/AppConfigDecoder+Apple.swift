import LinkdFormats
import LinkdRouting

extension AppConfigDecoder {
    /// `"apple": {"clientId", "redirectUri", "authorizeUrl"?, "scope"?}`: both addresses https (plain http only for
    /// 127.0.0.1, ::1 or localhost), with no fragment; `scope` is Apple's, space-separated (`"name email"`, the default;
    /// `"email"`; `""` for neither).
    mutating func appleConfig(_ object: JSONValue, at path: String) -> AppleConfig? {
        guard object.objectMembers != nil else {
            fail(path, "expected an object")
            return nil
        }
        checkKeys(object, allowed: ["clientId", "redirectUri", "authorizeUrl", "scope"], at: path)
        let clientID = string(object["clientId"], at: "\(path).clientId")
        if let clientID, clientID.isEmpty || clientID.contains(where: { $0.isWhitespace || $0.isNewline }) {
            fail("\(path).clientId", "expected the Apple Services ID, without spaces")
        }
        let redirect = webAddress(object["redirectUri"], at: "\(path).redirectUri")
        let authorize =
            object["authorizeUrl"] == nil
            ? AppleConfig.defaultAuthorizeURL : webAddress(object["authorizeUrl"], at: "\(path).authorizeUrl")
        let scope = object["scope"] == nil ? AppleConfig.defaultScope : appleScope(object["scope"], at: "\(path).scope")
        guard let clientID, let redirect, let authorize, let scope else { return nil }
        return AppleConfig(clientID: clientID, redirectURI: redirect, authorizeURL: authorize, scope: scope)
    }

    /// Apple's scope: `name` and `email`, each at most once, separated by one space.
    private mutating func appleScope(_ value: JSONValue?, at path: String) -> [String]? {
        let expected = #"expected Apple's scope: "name email", "name", "email" or "" (each once, one space between)"#
        guard let text = value?.stringValue else {
            fail(path, expected)
            return nil
        }
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let scope = text.isEmpty ? [] : words
        guard scope.allSatisfy(AppleConfig.scopes.contains), Set(scope).count == scope.count else {
            fail(path, expected)
            return nil
        }
        return scope
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
