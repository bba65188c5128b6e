/// A token, code or key taken from a link: it prints, logs, dumps and encodes as `<redacted>` unless revealed.
///
/// ```swift
/// let token = Secret("eyJ…")
/// "\(token)"         // "<redacted>"
/// token.revealed()   // "eyJ…", for the one place that must send it
/// ```
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable,
    Encodable
{
    /// What a secret prints as.
    public static let redacted = "<redacted>"

    private let value: String

    /// Wraps `value`; no shape check (the formats check shapes before they wrap).
    public init(_ value: String) {
        self.value = value
    }

    /// The secret itself. Call it only where the value must leave the process to the party it belongs to.
    public func revealed() -> String { value }

    /// The number of UTF-8 bytes, which is safe to show.
    public var byteCount: Int { value.utf8.count }

    public var description: String { Self.redacted }
    public var debugDescription: String { "Secret(\(Self.redacted))" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// Encodes as the string `<redacted>`: an encoder never sees the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Self.redacted)
    }
}
