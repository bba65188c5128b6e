import LinkdFormats

/// Where each member and element of a JSON text stands, by JSON path (`$`, `$.links[1].action`): the position of its
/// value, and for an object member the position of its key too.
///
/// It is built from a text that ``JSONValue/parse(_:)`` accepted, walking it once; on a repeated key the last one's
/// positions count, as ``JSONValue``'s subscript reads the last.
package struct JSONLocations {
    private var values: [String: TextPosition] = [:]
    private var keys: [String: TextPosition] = [:]

    /// The locations in `bytes`, a valid JSON text.
    package init(scanning bytes: [UInt8]) {
        var scanner = Scanner(bytes: bytes)
        scanner.value(at: "$", depth: 0, into: &self)
    }

    /// Where the value at `path` starts; for a path with no value (a missing member), where its nearest enclosing
    /// value starts; ``TextPosition/start`` when there is none.
    package func value(at path: String) -> TextPosition {
        var path = Substring(path)
        while true {
            if let position = values[String(path)] { return position }
            guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { return .start }
            path = path[..<cut]
        }
    }

    /// Where the key of the member at `path` starts, or else as ``value(at:)``.
    package func key(at path: String) -> TextPosition {
        keys[path] ?? value(at: path)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var position = TextPosition.start

        private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func step() {
            position.advance(over: bytes[index])
            index += 1
        }

        mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { step() }
        }

        /// Records the value at `path` and everything in it, and moves past it.
        mutating func value(at path: String, depth: Int, into locations: inout JSONLocations) {
            skipSpace()
            locations.values[path] = position
            guard depth < 64, let byte = current else { return }
            switch byte {
            case UInt8(ascii: "{"):
                members(of: path, depth: depth, into: &locations)
            case UInt8(ascii: "["):
                elements(of: path, depth: depth, into: &locations)
            case UInt8(ascii: "\""):
                _ = string()
            default:
                while let byte = current, ![UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(byte) {
                    step()
                }
            }
        }

        private mutating func members(of path: String, depth: Int, into locations: inout JSONLocations) {
            step()
            while true {
                skipSpace()
                guard current == UInt8(ascii: "\"") else { break }
                let keyPosition = position
                let key = string()
                skipSpace()
                guard current == UInt8(ascii: ":") else { return }
                step()
                let memberPath = path + "." + key
                locations.keys[memberPath] = keyPosition
                value(at: memberPath, depth: depth + 1, into: &locations)
                skipSpace()
                guard current == UInt8(ascii: ",") else { break }
                step()
            }
            if current == UInt8(ascii: "}") { step() }
        }

        private mutating func elements(of path: String, depth: Int, into locations: inout JSONLocations) {
            step()
            skipSpace()
            var count = 0
            while let byte = current, byte != UInt8(ascii: "]") {
                value(at: "\(path)[\(count)]", depth: depth + 1, into: &locations)
                count += 1
                skipSpace()
                guard current == UInt8(ascii: ",") else { break }
                step()
            }
            if current == UInt8(ascii: "]") { step() }
        }

        /// Moves past a string literal and returns its text (decoded by ``JSONValue``, escapes and all).
        private mutating func string() -> String {
            let start = index
            step()
            while let byte = current, byte != UInt8(ascii: "\"") {
                step()
                if byte == UInt8(ascii: "\\"), current != nil { step() }
            }
            if current != nil { step() }
            return (try? JSONValue.parse(bytes[start..<index]))?.stringValue ?? ""
        }
    }
}
