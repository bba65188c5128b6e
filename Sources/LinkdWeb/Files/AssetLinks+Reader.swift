import LinkdConfig
import LinkdFormats
import LinkdRouting

extension AssetLinks {
    /// Reads the file's `bytes`, a JSON array of statements: a statement that cannot be read is left out (named in
    /// ``warnings``), the rest stand; statements about anything else (a web site, another relation) are left alone.
    ///
    /// - Parameter isIncluded: whether the file is one an `include` statement named: its own `include` statements are
    ///   not followed (one level deep), and are named in ``warnings``.
    /// - Throws: ``AssociationFileError`` naming the part at fault when no part of the file is usable: not JSON, over
    ///   ``sizeLimit``, no array, or statements none of which can be read.
    package init(parsing bytes: [UInt8], isIncluded: Bool = false) throws(AssociationFileError) {
        let root = try AssociationFileError.json(of: bytes, limit: Self.sizeLimit)
        guard let list = root.arrayElements else { throw AssociationFileError("$", "expected an array") }
        var skipped: [AssociationFileError] = []
        for (index, value) in list.enumerated() {
            let path = "$[\(index)]"
            let noted = warnings.count
            do throws(AssociationFileError) {
                try read(value, isIncluded: isIncluded, at: path)
            } catch {
                // Left out whole: what it noted of its parts goes with it.
                warnings.removeSubrange(noted...)
                warnings.append(AssociationFileError(error.path, error.problem + "; its statement is left out"))
                skipped.append(error)
            }
        }
        if skipped.count == list.count, let first = skipped.first { throw first }
    }

    /// Reads the statements of `included` files after the file's own: a file that could not be had or read is left
    /// out and named in ``warnings`` with its address, as is each part of one that could not be read.
    package mutating func add(_ included: [Included]) {
        for file in included {
            let bytes: [UInt8]
            switch file.result {
            case .success(let fetched): bytes = fetched
            case .failure(let failure):
                warnings.append(AssociationFileError(file.address, failure.reason + "; its statements are left out"))
                continue
            }
            do throws(AssociationFileError) {
                let other = try AssetLinks(parsing: bytes, isIncluded: true)
                statements += other.statements.map { statement in
                    var statement = statement
                    statement.source = file.address + " " + statement.source
                    return statement
                }
                warnings += other.warnings.map { AssociationFileError(file.address + " " + $0.path, $0.problem) }
            } catch {
                warnings.append(
                    AssociationFileError(
                        file.address + " " + error.path,
                        error.problem + "; its statements are left out"
                    )
                )
            }
        }
    }

    /// Reads one statement: an `include`, one that lets an Android app handle the host's links, or another left alone.
    ///
    /// - Throws: ``AssociationFileError`` naming the part that leaves the statement unusable.
    private mutating func read(_ value: JSONValue, isIncluded: Bool, at path: String) throws(AssociationFileError) {
        guard value.objectMembers != nil else { throw AssociationFileError(path, "expected an object") }
        if let include = value["include"] {
            let at = "\(path).include"
            guard value["relation"] == nil, value["target"] == nil else {
                throw AssociationFileError(path, "an include statement has no relation or target of its own")
            }
            guard let address = include.stringValue else { throw AssociationFileError(at, "expected a string") }
            guard address.utf8.count <= Self.addressLimit, address.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
                let url = try? LinkURL(parsing: address), url.scheme == "https", !url.hostname.isEmpty
            else {
                let shown = DisplayText.sanitize(String(address.prefix(200)))
                throw AssociationFileError(
                    at,
                    "'\(shown)' is no https address (of at most \(Self.addressLimit) characters): an include is "
                        + "followed over https alone"
                )
            }
            if isIncluded {
                warnings.append(AssociationFileError(at, "not followed: an included file's includes are not read"))
            } else if includes.count == Self.includeLimit {
                warnings.append(AssociationFileError(at, "not followed: a file's first \(Self.includeLimit) are"))
            } else {
                includes.append(Include(address: url.href, path: at))
            }
            return
        }
        guard let relations = value["relation"]?.arrayElements else {
            throw AssociationFileError("\(path).relation", "expected an array")
        }
        for (index, relation) in relations.enumerated() where !Self.isRelation(relation.stringValue) {
            throw AssociationFileError(
                "\(path).relation[\(index)]",
                "expected a relation such as 'delegate_permission/common.handle_all_urls' (lower-case KIND/DETAIL)"
            )
        }
        guard let target = value["target"], target.objectMembers != nil else {
            throw AssociationFileError("\(path).target", "expected an object")
        }
        guard let namespace = target["namespace"]?.stringValue else {
            throw AssociationFileError("\(path).target.namespace", "expected a string")
        }
        guard relations.contains(.string(Self.handleAllURLs)), namespace == "android_app" else { return }
        guard let name = target["package_name"]?.stringValue, !name.isEmpty else {
            throw AssociationFileError("\(path).target.package_name", "expected a non-empty string")
        }
        guard WebConfig.isAndroidPackage(name) else {
            throw AssociationFileError("\(path).target.package_name", "'\(name)' is not an Android package name")
        }
        let fingerprints = try fingerprints(target["sha256_cert_fingerprints"], at: "\(path).target")
        let rules = try dynamicRules(value["relation_extensions"], at: "\(path).relation_extensions")
        statements.append(Statement(package: name, fingerprints: fingerprints, rules: rules, source: path))
    }

    /// Whether `text` is a relation as Digital Asset Links writes one: `KIND/DETAIL`, each of lower-case letters,
    /// digits, `_` and `.` (`delegate_permission/common.handle_all_urls`).
    static func isRelation(_ text: String?) -> Bool {
        guard let parts = text?.split(separator: "/", omittingEmptySubsequences: false), parts.count == 2 else {
            return false
        }
        return parts.allSatisfy { part in
            // a-z, 0-9, `_`, `.`
            !part.isEmpty
                && part.utf8.allSatisfy {
                    (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F || $0 == 0x2E
                }
        }
    }

    /// The well-formed fingerprints of `sha256_cert_fingerprints`; one that is not is named in ``warnings``.
    ///
    /// - Throws: ``AssociationFileError`` when there is none: a statement for an app counts only with its certificate.
    private mutating func fingerprints(_ value: JSONValue?, at target: String) throws(AssociationFileError) -> [String]
    {
        let path = "\(target).sha256_cert_fingerprints"
        guard let elements = value?.arrayElements else { throw AssociationFileError(path, "expected an array") }
        var fingerprints: [String] = []
        for (index, element) in elements.enumerated() {
            if let text = element.stringValue, WebConfig.isFingerprint(text) {
                fingerprints.append(text)
            } else {
                let problem = "not a SHA-256 fingerprint (32 upper-case hex bytes joined by ':'); it is left out"
                warnings.append(AssociationFileError("\(path)[\(index)]", problem))
            }
        }
        guard !fingerprints.isEmpty else {
            throw AssociationFileError(
                path,
                "no well-formed fingerprint: a statement for an app needs its certificate's"
            )
        }
        return fingerprints
    }

    /// Android 15's dynamic rules: `relation_extensions` →
    /// `delegate_permission/common.handle_all_urls` → `dynamic_app_link_components`, an array of components with the
    /// keys of an apple-app-site-association component (`/`, `?`, `#`, `exclude`; `comments` left alone), but for a
    /// `?` object's item, which the link must have (`{"?": {"dl": "*"}}` takes the links with a `dl`). `nil` when the
    /// statement has none.
    ///
    /// - Throws: ``AssociationFileError`` naming a part that cannot be read: the statement is then left out whole,
    ///   since without its rules it would admit links its site withholds.
    private mutating func dynamicRules(
        _ value: JSONValue?,
        at path: String
    ) throws(AssociationFileError) -> [AppSiteAssociation.Rule]? {
        guard let value else { return nil }
        guard value.objectMembers != nil else { throw AssociationFileError(path, "expected an object") }
        guard let extensions = value[Self.handleAllURLs] else { return nil }
        let at = "\(path).\(Self.handleAllURLs)"
        guard extensions.objectMembers != nil else { throw AssociationFileError(at, "expected an object") }
        guard let components = extensions["dynamic_app_link_components"] else { return nil }
        guard let list = components.arrayElements else {
            throw AssociationFileError("\(at).dynamic_app_link_components", "expected an array")
        }
        var reader = try AppSiteAssociation.Reader(variables: nil, at: at)
        var rules: [AppSiteAssociation.Rule] = []
        for (index, component) in list.enumerated() {
            let path = "\(at).dynamic_app_link_components[\(index)]"
            guard component.objectMembers != nil else { throw AssociationFileError(path, "expected an object") }
            var rule = try reader.rule(component, over: AppSiteAssociation.Rule(missingItemIsEmpty: false), at: path)
            // Said after its statement's own path (``AssetLinks/match(for:fingerprints:link:)``).
            rule.source = ".relation_extensions.…dynamic_app_link_components[\(index)]"
            rules.append(rule)
        }
        warnings += reader.warnings
        return rules.isEmpty ? nil : rules
    }
}
