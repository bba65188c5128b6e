import LinkdFormats
import LinkdRouting

extension AppConfigDecoder {
    /// `"web": {"appleAppId"?, "androidPackage"?, "androidFingerprints"?, "caFile"?, "proxy"?}`: the identity the
    /// app's site already publishes for its phone apps — at least one of the two — with which its association files
    /// are checked, and how they are fetched.
    mutating func webConfig(_ object: JSONValue, at path: String) -> WebConfig? {
        guard object.objectMembers != nil else {
            fail(path, "expected an object")
            return nil
        }
        checkKeys(
            object,
            allowed: ["appleAppId", "androidPackage", "androidFingerprints", "caFile", "proxy"],
            at: path
        )
        var web = WebConfig()
        var isValid = true
        if let value = object["appleAppId"] {
            web.appleAppID = string(value, at: "\(path).appleAppId")
            if let id = web.appleAppID, !WebConfig.isAppleAppID(id) {
                fail("\(path).appleAppId", "'\(id)' is not an Apple app id such as 'ABCDE12345.com.example.notes'")
                isValid = false
            }
        }
        if let value = object["androidPackage"] {
            web.androidPackage = string(value, at: "\(path).androidPackage")
            if let name = web.androidPackage, !WebConfig.isAndroidPackage(name) {
                fail("\(path).androidPackage", "'\(name)' is not an Android package name such as 'com.example.notes'")
                isValid = false
            }
        }
        if let value = object["androidFingerprints"] {
            isValid = androidFingerprints(value, into: &web, at: "\(path).androidFingerprints") && isValid
        }
        if object["appleAppId"] == nil && object["androidPackage"] == nil {
            fail(path, "expected 'appleAppId' or 'androidPackage': the app's identity in its site's association files")
            isValid = false
        }
        if let value = object["caFile"] {
            web.caFile = string(value, at: "\(path).caFile")
            if let file = web.caFile, !file.hasPrefix("/") {
                fail("\(path).caFile", "expected an absolute path")
                isValid = false
            } else if let file = web.caFile, !checkTrusted(caFile: file, at: "\(path).caFile") {
                isValid = false
            }
        }
        if let value = object["proxy"] {
            web.proxy = proxy(value, at: "\(path).proxy")
            isValid = isValid && web.proxy != nil
        }
        return isValid ? web : nil
    }

    /// `androidFingerprints`: a non-empty array of fingerprints (``WebConfig/isFingerprint(_:)``), for an app that
    /// names its `androidPackage`.
    private mutating func androidFingerprints(
        _ value: JSONValue,
        into web: inout WebConfig,
        at path: String
    ) -> Bool {
        guard let elements = value.arrayElements, !elements.isEmpty else {
            fail(path, "expected a non-empty array of fingerprints")
            return false
        }
        var isValid = true
        for (index, element) in elements.enumerated() {
            guard let text = string(element, at: "\(path)[\(index)]") else {
                isValid = false
                continue
            }
            guard WebConfig.isFingerprint(text) else {
                fail(
                    "\(path)[\(index)]",
                    "'\(text)' is no SHA-256 fingerprint: expected 32 upper-case hex bytes joined by ':'"
                )
                isValid = false
                continue
            }
            web.androidFingerprints.append(text)
        }
        if web.androidPackage == nil {
            fail(path, "names the fingerprints of 'androidPackage', which is not set")
            isValid = false
        }
        return isValid
    }

    /// `http://`, `https://`, `socks5://` or `socks5h://` with a host, and nothing after it but a port.
    private mutating func proxy(_ value: JSONValue, at path: String) -> String? {
        guard let text = string(value, at: path) else { return nil }
        guard let url = try? LinkURL(parsing: text), ["http", "https", "socks5", "socks5h"].contains(url.scheme),
            !url.hostname.isEmpty, url.pathname.isEmpty || url.pathname == "/", url.query == nil, url.fragment == nil
        else {
            fail(path, "expected a proxy such as 'http://proxy.example:3128' or 'socks5h://127.0.0.1:1080'")
            return nil
        }
        return text
    }
}
