/// The parameters of a link's query and fragment, decoded as `application/x-www-form-urlencoded` (DESIGN.md §3).
///
/// Query parameters come first, then the fragment's; a name given twice with the same value appears once.
/// A name with an empty value (`?error` or `?error=`) is present, with the empty string as its value. Values
/// without a `%` are decoded when they are read, so a 900-byte token costs nothing until it is used.
public struct LinkParameters: Sendable, Hashable, Sequence {
    /// The most `&`-separated pieces a link's query and fragment may hold together, empty ones included.
    public static let maximumCount = 64

    /// One decoded parameter and the part it came from.
    public struct Parameter: Sendable, Hashable {
        /// The decoded name.
        public var name: String
        /// The decoded value; empty when the link gave none.
        public var value: String
        /// ``LinkPart/query`` or ``LinkPart/fragment``.
        public var part: LinkPart

        /// Creates a parameter.
        public init(name: String, value: String, part: LinkPart) {
            self.name = name
            self.value = value
            self.part = part
        }
    }

    /// A name or value: a range of the link's `href` (a `+` in it reads as a space) and, when the range held a
    /// `%`, the index of its decoded text in `decodedTexts`. Plain values, so reading a link retains nothing per
    /// parameter.
    private struct Text: Sendable, Hashable {
        private var start: Int32
        private var end: Int32
        private var decodedIndex: Int32

        init(range: Range<Int>, decoded: Int? = nil) {
            start = Int32(range.lowerBound)
            end = Int32(range.upperBound)
            decodedIndex = decoded.map(Int32.init) ?? -1
        }

        var range: Range<Int> { Int(start)..<Int(end) }
        var decoded: Int? { decodedIndex < 0 ? nil : Int(decodedIndex) }
        var count: Int { Int(end - start) }
    }

    private struct Entry: Sendable, Hashable {
        var name: Text
        var value: Text
        var part: LinkPart
    }

    private var entries: [Entry] = []
    private var decodedTexts: [String] = []
    private var link: LinkURL?

    /// Creates an empty set of parameters.
    public init() {}

    /// Decodes the query and the fragment of `link`.
    ///
    /// - Throws: `too_many_parameters`, `conflicting_parameter` (naming the parameter) or `invalid_utf8`.
    public init(of link: LinkURL) throws(RouteError) {
        self.link = link
        let layout = link.layout
        let query = layout.queryRange ?? 0..<0
        let fragment = layout.fragmentRange.map { layout.fragmentParametersStart..<$0.upperBound } ?? 0..<0
        let result = link.withBytes { bytes -> Result<([Entry], [String]), RouteError> in
            var reader = PieceReader(bytes: bytes)
            reader.read(query, .query)
            reader.read(fragment, .fragment)
            if reader.pieceCount > Self.maximumCount {
                return .failure(
                    .refused(
                        .tooManyParameters,
                        part: .parameters,
                        "the link has more than \(Self.maximumCount) parameters"
                    )
                )
            }
            if let failure = reader.failure { return .failure(failure) }
            return .success((reader.entries, reader.decodedTexts))
        }
        (entries, decodedTexts) = try result.get()
    }

    /// Splits query and fragment into pieces in one pass: every piece is counted, and the first refusal is kept
    /// so that `too_many_parameters` still wins over it.
    private struct PieceReader {
        let bytes: UnsafeBufferPointer<UInt8>
        var entries: [Entry] = []
        var decodedTexts: [String] = []
        var pieceCount = 0
        var failure: RouteError?

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func read(_ range: Range<Int>, _ part: LinkPart) {
            guard !range.isEmpty else { return }
            var start = range.lowerBound
            var equals: Int?
            var hasPercent = false
            var marks = ByteMarks(bytes, range, UInt8(ascii: "&"), UInt8(ascii: "="), UInt8(ascii: "%"))
            while let offset = marks.next() {
                switch bytes[offset] {
                case UInt8(ascii: "="):
                    if equals == nil { equals = offset }
                case UInt8(ascii: "%"):
                    hasPercent = true
                default:
                    take(start..<offset, equals: equals, part, hasPercent: hasPercent)
                    start = offset + 1
                    equals = nil
                    hasPercent = false
                }
            }
            take(start..<range.upperBound, equals: equals, part, hasPercent: hasPercent)
        }

        /// Counts a piece, and adds it while nothing was refused and the count is within the limit.
        private mutating func take(_ piece: Range<Int>, equals: Int?, _ part: LinkPart, hasPercent: Bool) {
            pieceCount += 1
            guard failure == nil && pieceCount <= LinkParameters.maximumCount else { return }
            do throws(RouteError) {
                try add(piece, equals: equals ?? piece.upperBound, part, hasPercent: hasPercent)
            } catch {
                failure = error
            }
        }

        private mutating func add(
            _ piece: Range<Int>,
            equals: Int,
            _ part: LinkPart,
            hasPercent: Bool
        ) throws(RouteError) {
            guard !piece.isEmpty else { return }
            let name = try text(piece.lowerBound..<equals, part, hasPercent: hasPercent)
            guard !LinkParameters.isEmpty(name, decodedTexts) else { return }
            let value = try text(
                Swift.min(equals + 1, piece.upperBound)..<piece.upperBound,
                part,
                hasPercent: hasPercent
            )
            var existing = 0
            while existing < entries.count && !same(entries[existing].name, name) { existing += 1 }
            guard existing < entries.count else {
                if entries.isEmpty { entries.reserveCapacity(8) }
                entries.append(Entry(name: name, value: value, part: part))
                return
            }
            guard same(entries[existing].value, value) else {
                throw .refused(
                    .conflictingParameter,
                    part: part,
                    "conflicting parameter '\(LinkParameters.string(name, bytes, decodedTexts))'"
                )
            }
        }

        /// Whether two names or values decode to the same text; plain ones of different lengths never do.
        private func same(_ lhs: Text, _ rhs: Text) -> Bool {
            if lhs.decoded == nil && rhs.decoded == nil && lhs.count != rhs.count { return false }
            return LinkParameters.same(lhs, rhs, bytes, decodedTexts)
        }

        /// A name or value as ``Text``: decoded (and checked to be UTF-8) now only when it holds a `%`.
        private mutating func text(_ range: Range<Int>, _ part: LinkPart, hasPercent: Bool) throws(RouteError) -> Text {
            guard hasPercent, bytes[range].contains(UInt8(ascii: "%")) else { return Text(range: range) }
            let decoded = PercentEncoding.decode(bytes[range], plusAsSpace: true)
            guard let text = String(validating: decoded, as: UTF8.self) else {
                throw .refused(
                    .invalidUTF8,
                    part: part,
                    "a parameter in the \(part.rawValue) does not decode to UTF-8"
                )
            }
            decodedTexts.append(text)
            return Text(range: range, decoded: decodedTexts.count - 1)
        }
    }

    private static func isEmpty(_ text: Text, _ decodedTexts: [String]) -> Bool {
        text.decoded.map { decodedTexts[$0].isEmpty } ?? text.range.isEmpty
    }

    /// Whether two names or values decode to the same text.
    private static func same(
        _ lhs: Text,
        _ rhs: Text,
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ decodedTexts: [String]
    ) -> Bool {
        switch (lhs.decoded, rhs.decoded) {
        case (nil, nil):
            // Without `%`, decoding only turns `+` into a space, and a raw link holds no space: equal bytes or not.
            guard lhs.range.count == rhs.range.count else { return false }
            for offset in 0..<lhs.range.count
            where bytes[lhs.range.lowerBound + offset] != bytes[rhs.range.lowerBound + offset] {
                return false
            }
            return true
        case (let left?, let right?):
            return decodedTexts[left] == decodedTexts[right]
        case (let decoded?, nil):
            return matches(rhs.range, decodedTexts[decoded], bytes)
        case (nil, let decoded?):
            return matches(lhs.range, decodedTexts[decoded], bytes)
        }
    }

    /// Whether the raw range decodes to `text`.
    private static func matches(_ range: Range<Int>, _ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        text.utf8.elementsEqual(bytes[range].lazy.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 })
    }

    /// The decoded text of a name or value.
    private static func string(_ text: Text, _ bytes: UnsafeBufferPointer<UInt8>, _ decodedTexts: [String]) -> String {
        if let decoded = text.decoded { return decodedTexts[decoded] }
        return String(
            decoding: bytes[text.range].lazy.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 },
            as: UTF8.self
        )
    }

    private func string(_ text: Text) -> String {
        guard let link else { return "" }
        return link.withBytes { Self.string(text, $0, decodedTexts) }
    }

    private func index(of name: String) -> Int? {
        guard let link else { return nil }
        return link.withBytes { bytes in
            entries.firstIndex { entry in
                entry.name.decoded.map { decodedTexts[$0] == name } ?? Self.matches(entry.name.range, name, bytes)
            }
        }
    }

    /// The parameters in the order they first appear, decoded.
    public var parameters: [Parameter] {
        guard let link else { return [] }
        return link.withBytes { bytes in
            entries.map {
                Parameter(
                    name: Self.string($0.name, bytes, decodedTexts),
                    value: Self.string($0.value, bytes, decodedTexts),
                    part: $0.part
                )
            }
        }
    }

    /// The value of `name`, or `nil` when the link does not carry it.
    public subscript(_ name: String) -> String? {
        index(of: name).map { string(entries[$0].value) }
    }

    /// The part `name` came from, or `nil` when the link does not carry it.
    public func part(of name: String) -> LinkPart? {
        index(of: name).map { entries[$0].part }
    }

    /// Whether the link carries `name`, with or without a value.
    public func contains(_ name: String) -> Bool { index(of: name) != nil }

    /// The decoded names, in order.
    public var names: [String] { entries.map { string($0.name) } }

    /// The number of distinct parameters.
    public var count: Int { entries.count }

    public func makeIterator() -> IndexingIterator<[Parameter]> { parameters.makeIterator() }

    public static func == (lhs: LinkParameters, rhs: LinkParameters) -> Bool { lhs.parameters == rhs.parameters }

    public func hash(into hasher: inout Hasher) { hasher.combine(parameters) }
}

extension LinkURL {
    /// The decoded parameters of the query and the fragment; see ``LinkParameters``.
    ///
    /// - Throws: `too_many_parameters`, `conflicting_parameter` or `invalid_utf8`.
    public func parameters() throws(RouteError) -> LinkParameters {
        try LinkParameters(of: self)
    }
}
