/// A type a path capture converts to, such as `Int` for `{id}` in `myapp://note/{id}`.
///
/// Conform your own types to route on them; a capture that does not convert fails that route's match, and the
/// router tries the next candidate.
public protocol CaptureConvertible: Sendable {
    /// The value for a percent-decoded capture, or `nil` when it does not convert.
    init?(capture: String)
    /// The capture as a path segment holds it, before percent-encoding; used when a route prints back to a link.
    var captureText: String { get }
    /// The type's name in explanations (`'abc' is not a valid Int`).
    static var captureTypeName: String { get }
}

extension CaptureConvertible where Self: LosslessStringConvertible {
    public var captureText: String { description }
    public static var captureTypeName: String { String(describing: Self.self) }
}

extension String: CaptureConvertible {
    public init?(capture: String) { self = capture }
}

extension Int: CaptureConvertible {
    public init?(capture: String) { self.init(capture, radix: 10) }
}

extension Int64: CaptureConvertible {
    public init?(capture: String) { self.init(capture, radix: 10) }
}

extension UInt64: CaptureConvertible {
    public init?(capture: String) { self.init(capture, radix: 10) }
}

extension Bool: CaptureConvertible {
    public init?(capture: String) { self.init(capture) }
}
