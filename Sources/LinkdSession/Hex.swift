/// Lower-case hexadecimal text of bytes: two digits a byte.
enum Hex {
    private static let digits = Array("0123456789abcdef")

    static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }
}
