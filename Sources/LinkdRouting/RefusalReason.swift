/// Why a link was refused, as the wire names spell it.
///
/// The raw value is the `reason` field of the JSON error object.
public enum RefusalReason: String, Sendable, Hashable, CaseIterable {
    case tooLong = "too_long"
    case empty
    case surroundingWhitespace = "surrounding_whitespace"
    case invalidCharacter = "invalid_character"
    case invalidUTF8 = "invalid_utf8"
    case noScheme = "no_scheme"
    case blockedScheme = "blocked_scheme"
    case badPercentEncoding = "bad_percent_encoding"
    case badAuthority = "bad_authority"
    case userinfo
    case nonASCIIHost = "non_ascii_host"
    case badHost = "bad_host"
    case badPort = "bad_port"
    case dotSegment = "dot_segment"
    case tooManyParameters = "too_many_parameters"
    case conflictingParameter = "conflicting_parameter"
    case missingField = "missing_field"
    case emptyField = "empty_field"
    case malformedSecret = "malformed_secret"
    case badValue = "bad_value"
    case formatMismatch = "format_mismatch"
}

/// The part of a link that a refusal concerns.
///
/// The raw value is the `part` field of the JSON error object.
public enum LinkPart: String, Sendable, Hashable, CaseIterable {
    case input
    case scheme
    case userinfo
    case host
    case port
    case path
    case query
    case fragment
    case parameters
}
