import LinkdRouting

/// A link's path as its site means it, for matching against an association file's rules: the spellings that name the
/// same resource on a web server read as one, so that a rule (`"exclude": true` for `/account/*` above all) cannot be
/// stepped around by writing the path another way.
///
/// Percent-escapes of unreserved characters (letters, digits, `-`, `.`, `_`, `~`) and of `/` are decoded
/// (`/%61ccount` is `/account`, `/account%2Fx` is `/account/x`); a run of slashes is one (`//account/x`), and slashes at
/// the end do not count (`/buy/` is `/buy`, as Apple's matcher reads it); dot segments that decoding made are resolved
/// as RFC 3986 §5.2.4 says (`/reset%2F..%2Fadmin` is `/admin`). Every other escape is left as written, for the rule's
/// `percentEncoded` setting to decide. The app still gets the link as it was clicked.
enum AssociationPath {
    /// `path` as its site means it.
    static func normalized(_ path: String) -> String {
        let bytes = Array(path.utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = PercentEncoding.hexValue(bytes[index + 1]),
                let low = PercentEncoding.hexValue(bytes[index + 2]), isUnreservedOrSlash(high << 4 | low)
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(byte)
                index += 1
            }
        }
        var segments: [ArraySlice<UInt8>] = []
        for segment in decoded.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            switch Array(segment) {
            case [UInt8(ascii: ".")]: continue
            case [UInt8(ascii: "."), UInt8(ascii: ".")]: _ = segments.popLast()
            default: segments.append(segment)
            }
        }
        var result: [UInt8] = []
        for segment in segments {
            result.append(UInt8(ascii: "/"))
            result += segment
        }
        if result.isEmpty { result.append(UInt8(ascii: "/")) }
        return String(decoding: result, as: UTF8.self)
    }

    private static func isUnreservedOrSlash(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "-._~/".utf8.contains(byte)
        }
    }
}
