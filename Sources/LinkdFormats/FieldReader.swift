import LinkdRouting

/// Reads a format's fields from a link's parameters, refusing with linkd's refusal reasons: `missing_field`,
/// `empty_field`, `malformed_secret`, `bad_value`. Messages name the field, never a secret's value.
struct FieldReader {
    let parameters: LinkParameters
    /// Firebase reads the query alone.
    var queryOnly = false

    private func lookup(_ name: String) -> (value: String, part: LinkPart)? {
        guard let part = parameters.part(of: name), !queryOnly || part == .query, let value = parameters[name] else {
            return nil
        }
        return (value, part)
    }

    /// Whether the link carries `name` (empty or not).
    func has(_ name: String) -> Bool { lookup(name) != nil }

    /// Whether the link carries `name` with a non-empty value.
    func hasValue(_ name: String) -> Bool { lookup(name).map { !$0.value.isEmpty } ?? false }

    /// Refuses an empty value of a field that made a rule apply (`?error&code=x`).
    func requireNonEmptyIfPresent(_ names: [String]) throws(RouteError) {
        for name in names {
            if let (value, part) = lookup(name), value.isEmpty {
                throw .refused(.emptyField, part: part, "empty field '\(name)'")
            }
        }
    }

    /// A required text field.
    func required(_ name: String) throws(RouteError) -> String {
        guard let (value, part) = lookup(name) else {
            throw .refused(.missingField, part: .parameters, "missing field '\(name)'")
        }
        guard !value.isEmpty else { throw .refused(.emptyField, part: part, "empty field '\(name)'") }
        return value
    }

    /// An optional text field; an empty one counts as absent.
    func optional(_ name: String) -> String? {
        guard let (value, _) = lookup(name), !value.isEmpty else { return nil }
        return value
    }

    /// A secret field, shape-checked; `nil` when optional and absent or empty.
    func secret(_ name: String, required isRequired: Bool) throws(RouteError) -> Secret? {
        let value: String
        if isRequired {
            value = try required(name)
        } else {
            guard let present = optional(name) else { return nil }
            value = present
        }
        guard SecretShape.isWellFormed(value, name: name) else {
            let part = lookup(name)?.part ?? .parameters
            throw .refused(.malformedSecret, part: part, "malformed secret '\(name)'")
        }
        return Secret(value)
    }

    /// A required secret.
    func secret(_ name: String) throws(RouteError) -> Secret {
        guard let secret = try secret(name, required: true) else {
            preconditionFailure("a required secret is present or refused")
        }
        return secret
    }

    /// An optional whole number (digits only, fitting in a signed 64-bit integer).
    func number(_ name: String) throws(RouteError) -> Int64? {
        guard let value = optional(name) else { return nil }
        guard value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let number = Int64(value)
        else {
            let part = lookup(name)?.part ?? .parameters
            throw .refused(.badValue, part: part, "field '\(name)' is not a whole number: '\(value)'")
        }
        return number
    }

    /// A required field that must be one of `allowed`.
    func oneOf(_ name: String, _ allowed: [String]) throws(RouteError) -> String {
        let value = try required(name)
        guard allowed.contains(value) else {
            let part = lookup(name)?.part ?? .parameters
            throw .refused(.badValue, part: part, "unknown \(name) '\(value)'")
        }
        return value
    }

    /// `next`, kept only when it is a path starting with one `/` and holding no `\` or control.
    func nextPath() -> String? {
        guard let next = optional("next"), next.hasPrefix("/"), !next.hasPrefix("//") else { return nil }
        let isClean = next.unicodeScalars.allSatisfy {
            $0 != "\\" && $0.value >= 0x20 && !($0.value >= 0x7F && $0.value <= 0x9F)
        }
        return isClean ? next : nil
    }
}
