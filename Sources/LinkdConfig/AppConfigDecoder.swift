import FoundationEssentials
import LinkdFormats
import LinkdRouting

/// Reads one app's JSON into an ``AppConfig``, collecting every problem with its JSON path.
struct AppConfigDecoder {
    let file: String
    private(set) var errors: [ConfigError] = []

    init(file: String) {
        self.file = file
    }

    private mutating func fail(_ path: String, _ problem: String) {
        errors.append(ConfigError(file: file, path: path, problem: problem))
    }

    /// The config, or `nil` when any problem was found (then ``errors`` says which).
    mutating func decode(_ data: Data) -> AppConfig? {
        guard let object = try? JSONValue.parse(data) else {
            fail("$", "not valid JSON")
            return nil
        }
        guard object.objectMembers != nil else {
            fail("$", "expected an object")
            return nil
        }
        checkKeys(object, allowed: ["app", "links", "backend"], at: "$")
        let app = appID(object["app"], at: "$.app")
        let backend = object["backend"].flatMap { backendConfig($0, at: "$.backend") }
        var links: [LinkConfig] = []
        if let array = object["links"]?.arrayElements, !array.isEmpty {
            for (index, entry) in array.enumerated() {
                if let link = linkConfig(entry, appBackend: backend, at: "$.links[\(index)]") { links.append(link) }
            }
        } else {
            fail("$.links", object["links"] == nil ? "missing" : "expected a non-empty array of links")
        }
        guard errors.isEmpty, let app else { return nil }
        return AppConfig(app: app, file: file, links: links, backend: backend)
    }

    private mutating func checkKeys(_ object: JSONValue, allowed: Set<String>, at path: String) {
        let keys = Set((object.objectMembers ?? []).map(\.0))
        for key in keys.sorted() where !allowed.contains(key) { fail("\(path).\(key)", "unknown key") }
    }

    private mutating func string(_ value: JSONValue?, at path: String) -> String? {
        guard let value else {
            fail(path, "missing")
            return nil
        }
        guard let text = value.stringValue, !text.isEmpty else {
            fail(path, "expected a non-empty string")
            return nil
        }
        return text
    }

    /// A reverse-DNS id (`com.example.Notes`): dot-separated words of letters, digits, `_` and `-`.
    private mutating func appID(_ value: JSONValue?, at path: String) -> String? {
        guard let text = string(value, at: path) else { return nil }
        let words = text.split(separator: ".", omittingEmptySubsequences: false)
        let isValid =
            words.count >= 2
            && words.allSatisfy { word in
                guard let first = word.first, !first.isNumber else { return false }
                return word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
            }
        guard isValid else {
            fail(path, "'\(text)' is not a reverse-DNS app id such as 'com.example.Notes'")
            return nil
        }
        return text
    }

    private mutating func linkConfig(_ object: JSONValue, appBackend: BackendConfig?, at path: String) -> LinkConfig? {
        guard object.objectMembers != nil else {
            fail(path, "expected an object")
            return nil
        }
        checkKeys(object, allowed: ["match", "format", "action", "backend"], at: path)
        var pattern: RoutePattern?
        if let text = string(object["match"], at: "\(path).match") {
            do {
                pattern = try RoutePattern(text)
                if pattern?.scheme == "http" {
                    fail("\(path).match", "a link is claimed by scheme 'https', never 'http'")
                }
            } catch {
                fail("\(path).match", error.description)
            }
        }
        var format: AuthLinkFormat?
        if let raw = object["format"] {
            format = raw.stringValue.flatMap(AuthLinkFormat.init(rawValue:))
            if format == nil {
                let names = AuthLinkFormat.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                fail("\(path).format", "expected one of \(names)")
            }
        }
        let action = linkAction(object["action"], at: "\(path).action")
        let backend = object["backend"].flatMap { backendConfig($0, at: "\(path).backend") }
        if action == .reset {
            checkReset(format: format, backend: backend ?? appBackend, hasOwnBackend: backend != nil, at: path)
        }
        guard let pattern, let action else { return nil }
        return LinkConfig(match: pattern, format: format, action: action, backend: backend)
    }

    private mutating func checkReset(
        format: AuthLinkFormat?,
        backend: BackendConfig?,
        hasOwnBackend: Bool,
        at path: String
    ) {
        guard format == .supabase || format == .appservices else {
            fail("\(path).format", "action 'reset' needs format 'supabase' or 'appservices'")
            return
        }
        guard let backend else {
            fail("\(path).action", "action 'reset' needs a backend (the app's or the link's)")
            return
        }
        if backend.format != format {
            let location = hasOwnBackend ? "\(path).backend" : "$.backend"
            fail(location, "a '\(backend.format.rawValue)' backend cannot reset '\(format?.rawValue ?? "")' links")
        }
    }

    private mutating func linkAction(_ value: JSONValue?, at path: String) -> LinkAction? {
        let members = value?.objectMembers ?? []
        switch value {
        case nil:
            fail(path, "missing")
        case .string("reset"):
            return .reset
        case .string("forward"):
            return .forward
        case .object where members.count == 1 && members[0].0 == "exec":
            guard let argv = members[0].1.arrayElements, !argv.isEmpty,
                case let words = argv.compactMap(\.stringValue), words.count == argv.count,
                words.allSatisfy({ !$0.isEmpty })
            else {
                fail("\(path).exec", "expected a non-empty array of non-empty strings (the program and its arguments)")
                return nil
            }
            return .exec(words)
        case .object where members.count == 1 && members[0].0 == "dbus":
            guard let id = appID(members[0].1, at: "\(path).dbus") else { return nil }
            return .dbus(id)
        default:
            fail(path, #"expected "reset", "forward", {"exec": [argv…]} or {"dbus": "app.id"}"#)
        }
        return nil
    }

    private mutating func backendConfig(_ object: JSONValue, at path: String) -> BackendConfig? {
        guard object.objectMembers != nil else {
            fail(path, "expected an object")
            return nil
        }
        let kind = object["kind"]?.stringValue
        let secretKey = kind == "supabase" ? "apiKey" : "appId"
        checkKeys(object, allowed: ["kind", "url", "caFile", secretKey], at: path)
        let url = backendURL(object["url"], at: "\(path).url")
        let caFile = object["caFile"].flatMap { string($0, at: "\(path).caFile") }
        let backendKind: BackendConfig.Kind?
        switch kind {
        case "supabase":
            backendKind = string(object["apiKey"], at: "\(path).apiKey").map { .supabase(apiKey: Secret($0)) }
        case "appservices": backendKind = string(object["appId"], at: "\(path).appId").map { .appServices(appID: $0) }
        default:
            fail("\(path).kind", "expected 'supabase' or 'appservices'")
            backendKind = nil
        }
        guard let backendKind, let url else { return nil }
        return BackendConfig(kind: backendKind, url: url, caFile: caFile)
    }

    /// https, or plain http for 127.0.0.1, ::1 and localhost alone.
    private mutating func backendURL(_ value: JSONValue?, at path: String) -> LinkURL? {
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
            fail(path, "a backend is reached over https (plain http only for 127.0.0.1, ::1 or localhost)")
            return nil
        }
        guard url.query == nil && url.fragment == nil else {
            fail(path, "a backend URL has no query or fragment")
            return nil
        }
        return url
    }
}
