import LinkdFormats
import LinkdRouting

extension AppConfigDecoder {
    mutating func backendConfig(_ object: JSONValue, at path: String) -> BackendConfig? {
        guard object.objectMembers != nil else {
            fail(path, "expected an object")
            return nil
        }
        let kind = object["kind"]?.stringValue
        let secretKey = kind == "supabase" ? "apiKey" : "appId"
        let functionKeys: Set<String> = kind == "appservices" ? ["resetFunction", "resetArguments"] : ["emailCodes"]
        checkKeys(object, allowed: functionKeys.union(["kind", "url", "caFile", secretKey]), at: path)
        let url = backendURL(object["url"], kind: kind, at: "\(path).url")
        let caFile = object["caFile"].flatMap { string($0, at: "\(path).caFile") }
        let isTrustedCAFile = caFile.map { checkTrusted(caFile: $0, at: "\(path).caFile") } ?? true
        let backendKind: BackendConfig.Kind?
        switch kind {
        case "supabase":
            backendKind = string(object["apiKey"], at: "\(path).apiKey").map { .supabase(apiKey: Secret($0)) }
        case "appservices": backendKind = string(object["appId"], at: "\(path).appId").map { .appServices(appID: $0) }
        default:
            fail("\(path).kind", "expected 'supabase' or 'appservices'")
            backendKind = nil
        }
        let function = resetFunction(object, at: path)
        let codes = object["emailCodes"].flatMap { bool($0, at: "\(path).emailCodes") }
        guard let backendKind, let url, function.isValid, object["emailCodes"] == nil || codes != nil, isTrustedCAFile
        else {
            return nil
        }
        var config = BackendConfig(kind: backendKind, url: url, caFile: caFile)
        config.resetFunctionArguments = function.arguments
        config.emailsCarryCodes = codes ?? false
        return config
    }

    /// `"resetFunction": true` (with `"resetArguments": [...]`, any JSON values) for an App Services provider that
    /// runs a reset function: whether both keys are right, and the arguments' text (`[]` when there are none; `nil`
    /// for no function).
    private mutating func resetFunction(_ object: JSONValue, at path: String) -> (isValid: Bool, arguments: String?) {
        var isOn = false
        if let value = object["resetFunction"] {
            guard let flag = bool(value, at: "\(path).resetFunction") else { return (false, nil) }
            isOn = flag
        }
        switch object["resetArguments"] {
        case nil: return (true, isOn ? "[]" : nil)
        case .array(let values)? where isOn: return (true, JSONValue.array(values).serialized)
        case .array?:
            fail("\(path).resetArguments", "arguments go to a reset function: set \"resetFunction\": true")
            return (false, nil)
        default:
            fail("\(path).resetArguments", "expected an array of the reset function's arguments")
            return (false, nil)
        }
    }

    /// https, or plain http for 127.0.0.1, ::1 and localhost alone; without the part linkd appends for `kind`.
    private mutating func backendURL(_ value: JSONValue?, kind: String?, at path: String) -> LinkURL? {
        guard let url = secureAddress(value, at: path, reached: "a backend is reached") else { return nil }
        guard url.query == nil && url.fragment == nil else {
            fail(path, "a backend URL has no query or fragment")
            return nil
        }
        if let appended = Self.appendedPart(of: url.pathname, kind: kind) {
            let base = url.protocol + "//" + url.hostname + (url.port.map { ":\($0)" } ?? "")
            let prefix = url.pathname.dropLast(appended.count)
            fail(path, "ends in '\(appended)', which linkd appends: use '\(base + prefix)'")
            return nil
        }
        return url
    }

    /// An https address, or plain http for 127.0.0.1, ::1 and localhost alone; `reached` begins the complaint about
    /// another scheme ("a backend is reached").
    mutating func secureAddress(_ value: JSONValue?, at path: String, reached: String) -> LinkURL? {
        guard let text = string(value, at: path) else { return nil }
        let url: LinkURL
        do {
            url = try LinkURL(parsing: text)
        } catch {
            fail(path, error.description)
            return nil
        }
        let isLoopback = ["127.0.0.1", "[::1]", "localhost"].contains(url.hostname)
        guard url.scheme == "https" || (url.scheme == "http" && isLoopback) else {
            fail(path, "\(reached) over https (plain http only for 127.0.0.1, ::1 or localhost)")
            return nil
        }
        return url
    }

    /// The tail of `pathname` that linkd appends itself for a backend of `kind`: `/auth/v1` for Supabase,
    /// `/api/client/v2.0…` for App Services; `nil` when there is none.
    private static func appendedPart(of pathname: String, kind: String?) -> Substring? {
        var path = Substring(pathname)
        while path.hasSuffix("/") { path = path.dropLast() }
        switch kind {
        case "supabase":
            guard path.hasSuffix("/auth/v1") else { return nil }
            return pathname[path.index(path.endIndex, offsetBy: -8)...]
        case "appservices":
            let start = pathname.indices.first { pathname[$0...].hasPrefix("/api/client/v2.0") }
            return start.map { pathname[$0...] }
        default:
            return nil
        }
    }
}
