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

    private enum Value: Sendable, Hashable {
        /// Offsets into the link's `href` of a value that holds no `%`.
        case raw(Range<Int>)
        case decoded(String)
    }

    private struct Entry: Sendable, Hashable {
        var name: String
        var value: Value
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
        let name = try decode(bytes[piece.lowerBound..<equals], part: part)
        guard !name.isEmpty else { return }
        let valueRange = Swift.min(equals + 1, piece.upperBound)..<piece.upperBound
        let hasPercent = !layout.percents.isEmpty && layout.percents.contains { valueRange.contains($0) }
        let value: Value = hasPercent ? .decoded(try decode(bytes[valueRange], part: part)) : .raw(valueRange)
        guard let existing = entries.first(where: { $0.name == name }) else {
            entries.append(Entry(name: name, value: value, part: part))
            return
        }
        let isSame =
            switch (existing.value, value) {
            case (.raw(let old), .raw(let new)): bytes[old].elementsEqual(bytes[new])
            case (.decoded(let old), .decoded(let new)): old == new
            case (.raw(let raw), .decoded(let decoded)), (.decoded(let decoded), .raw(let raw)):
                decoded.utf8.elementsEqual(PercentEncoding.decode(bytes[raw], plusAsSpace: true))
            }
        guard isSame else { throw .refused(.conflictingParameter, part: part, "conflicting parameter '\(name)'") }
    }

    private static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>.SubSequence,
        part: LinkPart
    ) throws(RouteError) -> String {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        let decoded = PercentEncoding.decode(bytes, plusAsSpace: true)
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw .refused(.invalidUTF8, part: part, "a parameter in the \(part.rawValue) does not decode to UTF-8")
        }
        return text
    }

    private func value(_ value: Value) -> String {
        switch value {
        case .decoded(let text): return text
        case .raw(let range):
            guard let link else { return "" }
            let text = link.text(range)
            guard text.utf8.contains(UInt8(ascii: "+")) else { return String(text) }
            return String(decoding: PercentEncoding.decode(text.utf8, plusAsSpace: true), as: UTF8.self)
        }
    }

    /// The parameters in the order they first appear, decoded.
    public var parameters: [Parameter] {
        entries.map { Parameter(name: $0.name, value: value($0.value), part: $0.part) }
    }

    /// The value of `name`, or `nil` when the link does not carry it.
    public subscript(_ name: String) -> String? {
        entries.first { $0.name == name }.map { value($0.value) }
    }

    /// The part `name` came from, or `nil` when the link does not carry it.
    public func part(of name: String) -> LinkPart? {
        entries.first { $0.name == name }?.part
    }

    /// Whether the link carries `name`, with or without a value.
    public func contains(_ name: String) -> Bool { entries.contains { $0.name == name } }

    /// The decoded names, in order.
    public var names: [String] { entries.map(\.name) }

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
