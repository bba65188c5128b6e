extension LinkRedactor {
    /// Secret names in lower case: a name is compared without case, so that `OOBCODE=` is removed as well.
    private static let lowercasedNames = Set(SecretShape.names.map { $0.lowercased() })

    /// Whether `byte` may begin something to remove: a parameter's `=`, userinfo's `@` or an escape's `%`.
    static func mayHoldSecret(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "@") || byte == UInt8(ascii: "%")
    }

    /// Adds to `found` the ranges of `bytes` that hold a secret: the values of secret-named parameters, userinfo
    /// passwords, and what percent-decoding reveals inside the text, which is `depth` decodings deep already.
    static func collect(in bytes: [UInt8], depth: Int, into found: inout [Range<Int>]) {
        collectPasswords(in: bytes, into: &found)
        var start = 0
        while start < bytes.count {
            guard !isRunEnd(bytes[start]) else {
                start += 1
                continue
            }
            var end = start + 1
            while end < bytes.count && !isRunEnd(bytes[end]) { end += 1 }
            start = collect(inRun: start..<end, of: bytes, depth: depth, into: &found)
        }
    }

    /// Looks at one run of `bytes` between separators (`name=value`, or a piece of text): a secret-named parameter's
    /// value is removed up to where a value ends; a run that holds escapes is decoded and looked into, or at
    /// ``maximumNesting`` removed (after its `=`, or whole). Returns where the scan goes on.
    private static func collect(
        inRun run: Range<Int>,
        of bytes: [UInt8],
        depth: Int,
        into found: inout [Range<Int>]
    ) -> Int {
        let equals = bytes[run].firstIndex(of: UInt8(ascii: "="))
        if let equals {
            var nameStart = equals
            while nameStart > run.lowerBound && isNameByte(bytes[nameStart - 1]) { nameStart -= 1 }
            let name = String(decoding: bytes[nameStart..<equals], as: UTF8.self).lowercased()
            if lowercasedNames.contains(name) {
                var valueEnd = equals + 1
                while valueEnd < bytes.count && !isValueEnd(bytes[valueEnd]) { valueEnd += 1 }
                found.append((equals + 1)..<valueEnd)
                return max(valueEnd, run.upperBound)
            }
        }
        guard bytes[run].contains(UInt8(ascii: "%")), let decoded = percentDecoded(bytes[run]) else {
            return run.upperBound
        }
        guard depth < maximumNesting else {
            found.append((equals.map { $0 + 1 } ?? run.lowerBound)..<run.upperBound)
            return run.upperBound
        }
        var inner: [Range<Int>] = []
        collect(in: decoded.bytes, depth: depth + 1, into: &inner)
        for range in inner { found.append(decoded.origin[range.lowerBound]..<decoded.origin[range.upperBound]) }
        return run.upperBound
    }

    /// Adds the password of each userinfo in `bytes`: what lies between the first `:` and the last `@` of an
    /// authority, which starts after two or more slashes (or backslashes, which browsers read as slashes), or right
    /// after `http:`, `https:`, `ws:`, `wss:` or `ftp:` (which browsers read as if the slashes were there).
    static func collectPasswords(in bytes: [UInt8], into found: inout [Range<Int>]) {
        guard bytes.contains(UInt8(ascii: "@")) else { return }
        var index = 0
        while index < bytes.count {
            guard let start = authorityStart(in: bytes, at: index) else {
                index += 1
                continue
            }
            var end = start
            var lastAt: Int?
            while end < bytes.count && !isAuthorityEnd(bytes[end]) {
                if bytes[end] == UInt8(ascii: "@") { lastAt = end }
                end += 1
            }
            if let lastAt, let colon = bytes[start..<lastAt].firstIndex(of: UInt8(ascii: ":")), colon + 1 < lastAt {
                found.append((colon + 1)..<lastAt)
            }
            index = max(end, index + 1)
        }
    }

    /// Where an authority starts when one starts at `index`: after a run of slashes, or after a web scheme's colon.
    private static func authorityStart(in bytes: [UInt8], at index: Int) -> Int? {
        let byte = bytes[index]
        if isSlash(byte), index + 1 < bytes.count, isSlash(bytes[index + 1]) {
            guard index == 0 || !isSlash(bytes[index - 1]) else { return nil }
            var end = index + 2
            while end < bytes.count && isSlash(bytes[end]) { end += 1 }
            return end
        }
        guard byte == UInt8(ascii: ":"), index + 1 < bytes.count, !isSlash(bytes[index + 1]) else { return nil }
        var schemeStart = index
        while schemeStart > 0 && index - schemeStart < 5 && isLetter(bytes[schemeStart - 1]) { schemeStart -= 1 }
        guard schemeStart == 0 || !isLetter(bytes[schemeStart - 1]) else { return nil }
        let scheme = String(decoding: bytes[schemeStart..<index], as: UTF8.self).lowercased()
        return ["http", "https", "ws", "wss", "ftp"].contains(scheme) ? index + 1 : nil
    }

    /// Separators between runs: parameter separators, and what ends a link quoted in text.
    private static func isRunEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "?") || byte == UInt8(ascii: ";") || isValueEnd(byte)
    }

    /// What ends a secret's value: `&`, `#`, white space, or the end of a quoted link (a secret holds none of them).
    private static func isValueEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: " ")
            || byte == UInt8(ascii: "\t")
            || isQuoteEnd(byte)
    }

    /// What ends an authority: the path, query or fragment, or the end of a quoted link.
    private static func isAuthorityEnd(_ byte: UInt8) -> Bool {
        isSlash(byte) || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || isQuoteEnd(byte)
    }

    /// What ends a link quoted in text: a line end, a quote or an angle bracket.
    private static func isQuoteEnd(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"),
            UInt8(ascii: "<"), UInt8(ascii: ">"):
            true
        default: false
        }
    }

    private static func isSlash(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_")
    }
}
