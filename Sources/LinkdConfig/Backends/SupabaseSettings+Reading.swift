package import LinkdFormats

/// `{"kind": "supabase", "url": …, "apiKey": "…", "emailCodes": true}`.
extension SupabaseSettings: BackendSettingsReading {
    package static let keys: Set<String> = ["apiKey", "emailCodes"]

    package static func appendedPart(of pathname: String) -> Substring? {
        var path = Substring(pathname)
        while path.hasSuffix("/") { path = path.dropLast() }
        guard path.hasSuffix("/auth/v1") else { return nil }
        return pathname[path.index(path.endIndex, offsetBy: -8)...]
    }

    package static func decode(_ object: JSONValue, at path: String, with decoder: inout AppConfigDecoder) -> Self? {
        let apiKey = decoder.string(object["apiKey"], at: "\(path).apiKey")
        let codes = object["emailCodes"].flatMap { decoder.bool($0, at: "\(path).emailCodes") }
        guard let apiKey, object["emailCodes"] == nil || codes != nil else { return nil }
        return SupabaseSettings(apiKey: Secret(apiKey), emailsCarryCodes: codes ?? false)
    }
}
