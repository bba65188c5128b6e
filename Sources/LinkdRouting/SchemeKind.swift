/// What the strict reading makes of a scheme: never a link, one of the WHATWG special schemes, or any other.
///
/// Read from the scheme's lower-case bytes without a lookup table, since every parse asks; tests check it
/// against ``LinkURL/blockedSchemes`` and the special schemes' default ports.
enum SchemeKind: Equatable {
    case blocked
    case special(defaultPort: UInt16)
    case other

    init(_ scheme: UnsafeBufferPointer<UInt8>) {
        self =
            switch scheme.count {
            case 2: Self.is(scheme, "ws") ? .special(defaultPort: 80) : .other
            case 3:
                if Self.is(scheme, "wss") {
                    .special(defaultPort: 443)
                } else if Self.is(scheme, "ftp") {
                    .special(defaultPort: 21)
                } else if Self.is(scheme, "tel") || Self.is(scheme, "sms") {
                    .blocked
                } else {
                    .other
                }
            case 4:
                if Self.is(scheme, "http") {
                    .special(defaultPort: 80)
                } else if Self.is(scheme, "data") || Self.is(scheme, "file") || Self.is(scheme, "blob") {
                    .blocked
                } else {
                    .other
                }
            case 5:
                if Self.is(scheme, "https") {
                    .special(defaultPort: 443)
                } else {
                    Self.is(scheme, "about") ? .blocked : .other
                }
            case 6: Self.is(scheme, "mailto") ? .blocked : .other
            case 8: Self.is(scheme, "vbscript") ? .blocked : .other
            case 10: Self.is(scheme, "javascript") ? .blocked : .other
            default: .other
            }
    }

    /// Whether `scheme` is `name`, byte for byte (both have the same length here).
    private static func `is`(_ scheme: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        name.withUTF8Buffer { name in
            for index in 0..<name.count where name[index] != scheme[index] { return false }
            return true
        }
    }
}
