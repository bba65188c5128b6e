/// The parameters of a link's query and fragment, decoded as `application/x-www-form-urlencoded` (DESIGN.md §3).
///
/// Query parameters come first, then the fragment's; a name given twice with the same value appears once.
/// A name with an empty value (`?error` or `?error=`) is present, with the empty string as its value.
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

    /// The parameters in the order they first appear.
    public private(set) var parameters: [Parameter] = []

    /// Creates an empty set of parameters.
    public init() {}

    /// Decodes the query and the fragment of `link`.
    ///
    /// - Throws: `too_many_parameters`, `conflicting_parameter` (naming the parameter) or `invalid_utf8`.
    public init(of link: LinkURL) throws(RouteError) {
        var fragmentPieces: [ArraySlice<UInt8>] = []
        if let fragment = link.fragment {
            // Hash-router sites produce `…/#/#access_token=…`: the parameters follow the last `#`.
            let bytes = Array(fragment.utf8)
            let start = bytes.lastIndex(of: UInt8(ascii: "#")).map { $0 + 1 } ?? 0
            fragmentPieces = Self.pieces(bytes[start...])
        }
        let queryPieces = link.query.map { Self.pieces(Array($0.utf8)[...]) } ?? []
        guard queryPieces.count + fragmentPieces.count <= Self.maximumCount else {
            throw .refused(
                .tooManyParameters,
                part: .parameters,
                "the link has more than \(Self.maximumCount) parameters"
            )
        }
        for piece in queryPieces { try add(piece, from: .query) }
        for piece in fragmentPieces { try add(piece, from: .fragment) }
    }

    private static func pieces(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        bytes.isEmpty ? [] : bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false)
    }

    private mutating func add(_ piece: ArraySlice<UInt8>, from part: LinkPart) throws(RouteError) {
        guard !piece.isEmpty else { return }
        let equals = piece.firstIndex(of: UInt8(ascii: "=")) ?? piece.endIndex
        let name = try Self.decode(piece[..<equals], part: part)
        let value = equals == piece.endIndex ? "" : try Self.decode(piece[(equals + 1)...], part: part)
        guard !name.isEmpty else { return }
        if let existing = parameters.first(where: { $0.name == name }) {
            guard existing.value == value else {
                throw .refused(.conflictingParameter, part: part, "conflicting parameter '\(name)'")
            }
            return
        }
        parameters.append(Parameter(name: name, value: value, part: part))
    }

    private static func decode(_ bytes: ArraySlice<UInt8>, part: LinkPart) throws(RouteError) -> String {
        let decoded = PercentEncoding.decode(bytes, plusAsSpace: true)
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw .refused(.invalidUTF8, part: part, "a parameter in the \(part.rawValue) does not decode to UTF-8")
        }
        return text
    }

    /// The value of `name`, or `nil` when the link does not carry it.
    public subscript(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// Whether the link carries `name`, with or without a value.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// The number of distinct parameters.
    public var count: Int { parameters.count }

    public func makeIterator() -> IndexingIterator<[Parameter]> { parameters.makeIterator() }
}

extension LinkURL {
    /// The decoded parameters of the query and the fragment; see ``LinkParameters``.
    ///
    /// - Throws: `too_many_parameters`, `conflicting_parameter` or `invalid_utf8`.
    public func parameters() throws(RouteError) -> LinkParameters {
        try LinkParameters(of: self)
    }
}
