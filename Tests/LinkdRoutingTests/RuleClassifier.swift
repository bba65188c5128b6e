/// An independent reading of the strict parser's refusal rules, used to tell which WPT-valid inputs LinkURL must refuse
/// by rule, so that the remaining ones measure WHATWG coverage.
///
/// It reads the raw input and the standard's expected output, never LinkURL's own code.
enum RuleClassifier {
    static let blocked: Set<String> = [
        "javascript", "data", "file", "vbscript", "about", "blob", "mailto", "tel", "sms",
    ]
    static let special: Set<String> = ["http", "https", "ws", "wss", "ftp"]

    static func isRefusedByRule(_ input: String, expected: [String: String]) -> Bool {
        if input.isEmpty || input.utf8.count > 16_384 { return true }
        if input.unicodeScalars.contains(where: {
            $0.properties.isWhitespace || $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\\"
        }) {
            return true
        }
        if expected["username"] != "" || expected["password"] != "" { return true }
        let scheme = String(expected["protocol"]?.dropLast() ?? "")
        if blocked.contains(scheme) { return true }
        if hasBadPercent(Array(input.utf8)) { return true }
        guard let colon = input.firstIndex(of: ":") else { return true }
        let rest = input[input.index(after: colon)...]
        var pathPart = rest
        if rest.hasPrefix("//") {
            let authorityStart = rest.index(rest.startIndex, offsetBy: 2)
            let authorityEnd = rest[authorityStart...].firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
            let authority = rest[authorityStart..<authorityEnd]
            if authority.contains("@") { return true }
            if special.contains(scheme) {
                if authority.isEmpty { return true }
                if authority.unicodeScalars.contains(where: { !$0.isASCII }) || authority.contains("%") { return true }
                if authority.lowercased().contains("xn--") { return true }
            }
            pathPart = rest[authorityEnd...]
        } else if special.contains(scheme) {
            return true
        }
        let path = pathPart.prefix { $0 != "?" && $0 != "#" }
        let dotSpellings: Set<String> = [".", "..", "%2e", ".%2e", "%2e.", "%2e%2e"]
        return path.split(separator: "/", omittingEmptySubsequences: false).contains {
            dotSpellings.contains($0.lowercased())
        }
    }

    private static func hasBadPercent(_ bytes: [UInt8]) -> Bool {
        func isHex(_ byte: UInt8) -> Bool {
            (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
        }
        for (index, byte) in bytes.enumerated() where byte == 37 {
            if index + 2 >= bytes.count || !isHex(bytes[index + 1]) || !isHex(bytes[index + 2]) { return true }
        }
        return false
    }
}
