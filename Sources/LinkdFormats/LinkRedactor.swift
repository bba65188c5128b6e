/// Removes secrets from a link's text before it is shown or logged.
public enum LinkRedactor {
    /// `text` with the value of every secret-named parameter (`access_token=…`, also when the name is
    /// percent-encoded) replaced by `<redacted>`, and every occurrence of each of `values` too.
    ///
    /// It works on any text, parsed or not, so a refused link is redacted as well as a routed one.
    public static func redact(_ text: String, values: [Secret] = []) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var piece = ""
        func flush() {
            if let equals = piece.firstIndex(of: "="), SecretShape.isSecret(decodedName(piece[..<equals])),
                piece.index(after: equals) != piece.endIndex
            {
                output += piece[...equals] + Secret.redacted
            } else {
                output += piece
            }
            piece = ""
        }
        for character in text {
            if character == "?" || character == "#" || character == "&" {
                flush()
                output.append(character)
            } else {
                piece.append(character)
            }
        }
        flush()
        for value in values.map({ $0.revealed() }) where value.utf8.count >= 4 {
            output = output.replacingAll(value, with: Secret.redacted)
        }
        return output
    }

    private static func decodedName(_ name: Substring) -> String {
        var bytes: [UInt8] = []
        var iterator = name.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    /// Every occurrence of `target` replaced, without Foundation.
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty, contains(target) else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
