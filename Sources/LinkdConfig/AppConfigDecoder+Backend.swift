import LinkdFormats
import LinkdRouting

extension AppConfigDecoder {
    mutating func backendConfig(_ object: JSONValue, at path: String) -> BackendConfig? {
        guard object.objectMembers != nil else {
            fail(path, "expected an object")
            return nil
        }
        let kind = backends.kind(object["kind"]?.stringValue)
        // A kind linkd does not know is the problem: the keys of the kinds it knows are not problems beside it.
        let keys = kind?.keys ?? backends.all.reduce(into: Set<String>()) { $0.formUnion($1.keys) }
        checkKeys(object, allowed: keys.union(["kind", "url", "caFile"]), at: path)
        let url = backendURL(object["url"], kind: kind, at: "\(path).url")
        let caFile = object["caFile"].flatMap { string($0, at: "\(path).caFile") }
        let isTrustedCAFile = caFile.map { checkTrusted(caFile: $0, at: "\(path).caFile") } ?? true
        guard let kind else {
            fail("\(path).kind", "expected \(backends.listed)")
            return nil
        }
        guard let settings = kind.decode(object, at: path, with: &self), let url, isTrustedCAFile else { return nil }
        return BackendConfig(kind: settings, url: url, caFile: caFile)
    }

    /// https, or plain http for 127.0.0.1, ::1 and localhost alone; without the part linkd appends for `kind`.
    private mutating func backendURL(
        _ value: JSONValue?,
        kind: (any BackendSettingsReading.Type)?,
        at path: String
    ) -> LinkURL? {
        guard let url = secureAddress(value, at: path, reached: "a backend is reached") else { return nil }
        guard url.query == nil && url.fragment == nil else {
            fail(path, "a backend URL has no query or fragment")
            return nil
        }
        if let appended = kind?.appendedPart(of: url.pathname) {
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
}
