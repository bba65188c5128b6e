package import LinkdFormats
import LinkdRouting
import LinkdSystem

/// Reads one app's JSON into an ``AppConfig``, collecting every problem with its JSON path and the line and column of
/// the value it is about.
///
/// Most problems make the whole app unusable, and it is not loaded. A link whose program cannot be found (see
/// ``ProgramSearch``) is a problem of that link alone: the link keeps its program as written, not an absolute path,
/// which the daemon never runs — it answers a click on the link that the program cannot be found. A link whose
/// program is found but not trusted (``TrustedPath``) is a problem of that link alone too, and the link does not load.
package struct AppConfigDecoder {
    let file: String
    let programs: ProgramSearch
    /// The actions a link may name.
    let actions: ActionKinds
    /// The kinds of backend an app may name.
    let backends: BackendKinds
    /// Every problem found, in the order found.
    package private(set) var errors: [ConfigError] = []
    /// How many of ``errors`` stop the app from loading.
    private var fatalCount = 0
    private var locations = JSONLocations(scanning: [])
    /// Whether the app names a backend that has problems (reported already: its reset links say nothing more).
    private var hasBrokenAppBackend = false
    /// Whether the app configures Sign in with Apple (its `apple` links need it).
    private var hasApple = false

    /// A decoder for the file at `file`, reading the `actions` and `backends` it knows and looking the actions'
    /// programs up with `programs`.
    package init(file: String, programs: ProgramSearch, actions: ActionKinds, backends: BackendKinds = .linkd) {
        self.file = file
        self.programs = programs
        self.actions = actions
        self.backends = backends
    }

    /// Records a problem with the value at `path` that stops the app from loading.
    package mutating func fail(_ path: String, _ problem: String) {
        report(path, problem)
        fatalCount += 1
    }

    /// Whether the CA file `file` (a `caFile` key at `path`) is one that only root and this user can change
    /// (``TrustedPath``), as every file linkd takes orders from; one that is not is a problem that stops the app from
    /// loading. A file that cannot be checked (not there yet) passes here: the request that would use it checks it
    /// again and fails then.
    mutating func checkTrusted(caFile file: String, at path: String) -> Bool {
        do throws(TrustedPath.Failure) {
            _ = try TrustedPath(checking: file)
            return true
        } catch {
            if case .unreadable = error.reason { return true }
            fail(path, "\(error.description): linkd trusts no CA file that another user can change")
            return false
        }
    }

    /// Records a problem with the value at `path` that leaves the app loadable.
    package mutating func report(_ path: String, _ problem: String) {
        errors.append(ConfigError(file: file, position: locations.value(at: path), path: path, problem: problem))
    }

    /// The position of the value at `path`.
    func position(of path: String) -> TextPosition { locations.value(at: path) }

    /// The config, or `nil` when a problem stops it from loading (then ``errors`` says which).
    package mutating func decode(_ bytes: [UInt8]) -> AppConfig? {
        let object: JSONValue
        do throws(JSONValue.ParseError) {
            object = try JSONValue.parse(bytes)
        } catch {
            notJSON(error, in: bytes)
            return nil
        }
        locations = JSONLocations(scanning: bytes)
        guard object.objectMembers != nil else {
            fail("$", "expected an object")
            return nil
        }
        checkKeys(object, allowed: ["app", "links", "backend", "apple", "web"], at: "$")
        let app = appID(object["app"], at: "$.app")
        let backend = object["backend"].flatMap { backendConfig($0, at: "$.backend") }
        hasBrokenAppBackend = object["backend"] != nil && backend == nil
        let apple = object["apple"].flatMap { appleConfig($0, at: "$.apple") }
        hasApple = object["apple"] != nil
        let web = object["web"].flatMap { webConfig($0, at: "$.web") }
        var links: [LinkConfig] = []
        if let array = object["links"]?.arrayElements, !array.isEmpty {
            for (index, entry) in array.enumerated() {
                if let link = linkConfig(entry, appBackend: backend, at: "$.links[\(index)]") { links.append(link) }
            }
        } else {
            fail("$.links", object["links"] == nil ? "missing" : "expected a non-empty array of links")
        }
        if web != nil, !links.isEmpty, !links.contains(where: { $0.match.scheme == "https" }) {
            report("$.web", "the app claims no https link for it to apply to")
        }
        guard fatalCount == 0, let app else { return nil }
        return AppConfig(app: app, file: file, links: links, backend: backend, apple: apple, web: web)
    }

    /// Records why `bytes` are not JSON, where they break; a comma before a closing bracket is named as such, at
    /// the comma.
    private mutating func notJSON(_ error: JSONValue.ParseError, in bytes: [UInt8]) {
        var offset = error.offset
        var problem = "not valid JSON: \(error.problem)"
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") || bytes[offset] == UInt8(ascii: "]"),
            let comma = bytes[..<offset].lastIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
            bytes[comma] == UInt8(ascii: ",")
        {
            offset = comma
            problem = "not valid JSON: a comma before '\(Character(Unicode.Scalar(bytes[error.offset])))'"
        }
        errors.append(ConfigError(file: file, position: .of(offset: offset, in: bytes), path: "$", problem: problem))
        fatalCount += 1
    }

    mutating func checkKeys(_ object: JSONValue, allowed: Set<String>, at path: String) {
        let keys = Set((object.objectMembers ?? []).map(\.0))
        for key in keys.sorted() where !allowed.contains(key) {
            let keyPath = "\(path).\(key)"
            let near = allowed.filter { !keys.contains($0) && Self.isTypo(key, of: $0) }.sorted().first
            let problem = near.map { "unknown key; did you mean '\($0)'?" } ?? "unknown key"
            errors.append(
                ConfigError(file: file, position: locations.key(at: keyPath), path: keyPath, problem: problem)
            )
            fatalCount += 1
        }
    }

    /// Whether `typed` is `word` with one character left out, added, changed, or swapped with its neighbour.
    static func isTypo(_ typed: String, of word: String) -> Bool {
        let (a, b) = (Array(typed), Array(word))
        guard abs(a.count - b.count) <= 1, a != b else { return false }
        guard let first = a.indices.first(where: { $0 < b.count && a[$0] != b[$0] }) else { return true }
        let (restA, restB) = (a[(first + 1)...], b[(first + 1)...])
        return restA.elementsEqual(restB) || restA.elementsEqual(b[first...]) || a[first...].elementsEqual(restB)
            || (restA.first == b[first] && restB.first == a[first]
                && restA.dropFirst().elementsEqual(restB.dropFirst()))
    }

    /// `true` or `false`; `nil` (with the complaint) for anything else.
    package mutating func bool(_ value: JSONValue, at path: String) -> Bool? {
        guard case .bool(let flag) = value else {
            fail(path, "expected true or false")
            return nil
        }
        return flag
    }

    /// A non-empty string; `nil` (with the complaint) for anything else, or for no value.
    package mutating func string(_ value: JSONValue?, at path: String) -> String? {
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
    package mutating func appID(_ value: JSONValue?, at path: String) -> String? {
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
        let hasBrokenBackend = object["backend"] == nil ? hasBrokenAppBackend : backend == nil
        if !hasBrokenBackend, let action {
            let facts = ActionLinkFacts(
                format: format,
                backend: backend ?? appBackend,
                hasOwnBackend: backend != nil,
                hasApple: hasApple
            )
            action.settings.check(facts, at: path, with: &self)
        }
        guard let pattern, let action else { return nil }
        return LinkConfig(
            match: pattern,
            format: format,
            action: action,
            backend: backend,
            path: path,
            position: position(of: "\(path).match")
        )
    }
}
