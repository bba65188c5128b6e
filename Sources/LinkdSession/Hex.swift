/// Lower-case hexadecimal text of bytes: two digits a byte.
enum Hex {
    private static let digits = Array("0123456789abcdef")

    static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }

    /// Whether `byte` is a hexadecimal digit, in either case.
    static func isDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
        default: false
        }
    }
}
