/// The host of a link, as the WHATWG URL Standard models it.
public enum LinkHost: Sendable, Hashable, CustomStringConvertible {
    /// A domain of a special scheme (`https`, `wss` …): ASCII, lower case, `xn--` labels kept as they are.
    case domain(String)
    /// An IPv4 address, whichever of the standard's numeric forms it was written in (`0x7f.1` is `127.0.0.1`).
    case ipv4(UInt32)
    /// An IPv6 address: eight 16-bit pieces.
    case ipv6(IPv6Address)
    /// The host of a non-special scheme (`myapp://reset`): kept as written, case included, non-ASCII
    /// percent-encoded; may be empty (`myapp:///path`).
    case opaque(String)

    /// The host as the URL API's `hostname` serialises it (`[::1]` for IPv6).
    public var description: String {
        switch self {
        case .domain(let name), .opaque(let name): name
        case .ipv4(let address):
            "\(address >> 24).\(address >> 16 & 0xFF).\(address >> 8 & 0xFF).\(address & 0xFF)"
        case .ipv6(let address): "[\(address)]"
        }
    }
}
