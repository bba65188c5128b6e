/// The parameters of a link's query and fragment, decoded as `application/x-www-form-urlencoded`.
///
/// Query parameters come first, then the fragment's; a name given twice with the same value appears once.
/// A name with an empty value (`?error` or `?error=`) is present, with the empty string as its value. The link's
/// parser splits the parameters (``ParameterTable``); names and values are decoded when they are read, so a
/// 900-byte token costs nothing until it is used, and a copy of the parameters is one retain.
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

    /// The storage of the parsed link, which holds its ``ParameterTable``; `nil` for no parameters at all.
    private let storage: LinkURL.Storage?

    /// Creates an empty set of parameters.
    public init() {
        storage = nil
    }

    /// The parameters of `link`, split when it was parsed.
    ///
    /// - Throws: `too_many_parameters`, `conflicting_parameter` (naming the parameter) or `invalid_utf8`.
    init(of link: LinkURL) throws(RouteError) {
        try link.checkParameters()
        storage = link.storage
    }

    /// The parameters of `link`, whose table holds no refusal (``LinkURL/checkParameters()`` passed on it).
    init(checked link: LinkURL) {
        storage = link.storage
    }

    /// Calls `body` with the table and `href`'s bytes; `nil` for no parameters at all.
    private func withTable<Result>(_ body: (ParameterTable, UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        guard let storage, storage.parameters.count > 0 else { return nil }
        return LinkURL(storage: storage).withBytes { body(storage.parameters, $0) }
    }

    /// The entry of `name`, or `nil` when the link does not carry it.
    private func entry(_ name: String) -> ParameterTable.Entry? {
        withTable { table, bytes in
            (0..<table.count).lazy.map { table[$0] }.first { $0.name.equals(name, bytes) }
        } ?? nil
    }

    /// The parameters in the order they first appear, decoded.
    public var parameters: [Parameter] {
        withTable { table, bytes in
            (0..<table.count).map { index in
                let entry = table[index]
                return Parameter(name: entry.name.string(bytes), value: entry.value.string(bytes), part: entry.part)
            }
        } ?? []
    }

    /// The value of `name`, or `nil` when the link does not carry it.
    public subscript(_ name: String) -> String? {
        guard let entry = entry(name) else { return nil }
        return withTable { _, bytes in entry.value.string(bytes) }
    }

    /// The part `name` came from, or `nil` when the link does not carry it.
    public func part(of name: String) -> LinkPart? { entry(name)?.part }

    /// Whether the link carries `name`, with or without a value.
    public func contains(_ name: String) -> Bool { entry(name) != nil }

    /// The decoded names, in order.
    public var names: [String] {
        withTable { table, bytes in (0..<table.count).map { table[$0].name.string(bytes) } } ?? []
    }

    /// The number of distinct parameters.
    public var count: Int { storage?.parameters.count ?? 0 }

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

    /// Throws the refusal of the link's parameters, if any, without reading them.
    @usableFromInline
    func checkParameters() throws(RouteError) {
        if let failure = storage.parameters.failure { throw .refused(withBytes { failure.refusal($0) }) }
    }
}
