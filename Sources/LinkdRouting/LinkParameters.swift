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

    /// A name or value: a range of the link's `href` holding no `%` (a `+` in it reads as a space), or the
    /// decoded text of one that held a `%`.
    private enum Text: Sendable, Hashable {
        case raw(Range<Int>)
        case decoded(String)
    }

    private struct Entry: Sendable, Hashable {
        var name: Text
        var value: Text
        var part: LinkPart
    }

    private var entries: [Entry] = []
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
        let pieceCount = Self.pieceCount(query, layout) + Self.pieceCount(fragment, layout)
        guard pieceCount <= Self.maximumCount else {
            throw .refused(
                .tooManyParameters,
                part: .parameters,
                "the link has more than \(Self.maximumCount) parameters"
            )
        }
        let result = link.withBytes { bytes -> Result<[Entry], RouteError> in
            var entries: [Entry] = []
            entries.reserveCapacity(pieceCount)
            do throws(RouteError) {
                try Self.addPieces(of: query, .query, bytes, layout, to: &entries)
                try Self.addPieces(of: fragment, .fragment, bytes, layout, to: &entries)
            } catch {
                return .failure(error)
            }
            return .success(entries)
        }
        entries = try result.get()
    }

    private static func addPieces(
        of range: Range<Int>,
        _ part: LinkPart,
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ layout: LinkURL.Layout,
        to entries: inout [Entry]
    ) throws(RouteError) {
        guard !range.isEmpty else { return }
        var start = range.lowerBound
        for ampersand in layout.ampersands where range.contains(ampersand) {
            try add(start..<ampersand, part, bytes, layout, to: &entries)
            start = ampersand + 1
        }
        try add(start..<range.upperBound, part, bytes, layout, to: &entries)
    }

    private static func pieceCount(_ range: Range<Int>, _ layout: LinkURL.Layout) -> Int {
        range.isEmpty ? 0 : 1 + layout.ampersands.count { range.contains($0) }
    }

    private static func add(
        _ piece: Range<Int>,
        _ part: LinkPart,
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ layout: LinkURL.Layout,
        to entries: inout [Entry]
    ) throws(RouteError) {
        guard !piece.isEmpty else { return }
        var equals = piece.lowerBound
        while equals < piece.upperBound && bytes[equals] != UInt8(ascii: "=") { equals += 1 }
        let name = try text(piece.lowerBound..<equals, part, bytes, layout)
        if case .raw(let range) = name, range.isEmpty { return }
        if case .decoded(let decoded) = name, decoded.isEmpty { return }
        let value = try text(Swift.min(equals + 1, piece.upperBound)..<piece.upperBound, part, bytes, layout)
        guard let existing = entries.first(where: { same($0.name, name, bytes) }) else {
            entries.append(Entry(name: name, value: value, part: part))
            return
        }
        guard same(existing.value, value, bytes) else {
            throw .refused(.conflictingParameter, part: part, "conflicting parameter '\(string(name, bytes))'")
        }
    }

    /// A name or value as ``Text``: decoded (and checked to be UTF-8) now only when it holds a `%`.
    private static func text(
        _ range: Range<Int>,
        _ part: LinkPart,
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ layout: LinkURL.Layout
    ) throws(RouteError) -> Text {
        guard !layout.percents.isEmpty, layout.percents.contains(where: { range.contains($0) }) else {
            return .raw(range)
        }
        let decoded = PercentEncoding.decode(bytes[range], plusAsSpace: true)
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw .refused(.invalidUTF8, part: part, "a parameter in the \(part.rawValue) does not decode to UTF-8")
        }
        return .decoded(text)
    }

    /// Whether two names or values decode to the same text.
    private static func same(_ lhs: Text, _ rhs: Text, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch (lhs, rhs) {
        case (.raw(let left), .raw(let right)):
            // Without `%`, decoding only turns `+` into a space, and a raw link holds no space: equal bytes or not.
            return left.count == right.count
                && UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[left])
                    .elementsEqual(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[right]))
        case (.decoded(let left), .decoded(let right)):
            return left == right
        case (.raw(let raw), .decoded(let decoded)), (.decoded(let decoded), .raw(let raw)):
            return decoded.utf8.elementsEqual(bytes[raw].lazy.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 })
        }
    }

    /// The decoded text of a name or value.
    private static func string(_ text: Text, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        switch text {
        case .decoded(let decoded): decoded
        case .raw(let range):
            String(decoding: bytes[range].lazy.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        }
    }

    private func string(_ text: Text) -> String {
        guard let link else { return "" }
        return link.withBytes { Self.string(text, $0) }
    }

    private func index(of name: String) -> Int? {
        guard let link else { return nil }
        let target = Text.decoded(name)
        return link.withBytes { bytes in entries.firstIndex { Self.same($0.name, target, bytes) } }
    }

    /// The parameters in the order they first appear, decoded.
    public var parameters: [Parameter] {
        guard let link else { return [] }
        return link.withBytes { bytes in
            entries.map {
                Parameter(name: Self.string($0.name, bytes), value: Self.string($0.value, bytes), part: $0.part)
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
