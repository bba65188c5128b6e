/// Punycode (RFC 3492) decoding and the IDNA validity check of a decoded `xn--` label.
enum Punycode {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 128

    /// Decodes the part of a label after `xn--`; `nil` when it is not valid Punycode.
    static func decode(_ input: ArraySlice<UInt8>) -> [Unicode.Scalar]? {
        var output: [UInt32] = []
        var rest = input[...]
        if let delimiter = input.lastIndex(of: UInt8(ascii: "-")) {
            for byte in input[..<delimiter] {
                guard byte < 0x80 else { return nil }
                output.append(UInt32(byte))
            }
            rest = input[(delimiter + 1)...]
        }
        var n = initialN
        var bias = initialBias
        var i = 0
        var index = rest.startIndex
        while index < rest.endIndex {
            let oldI = i
            var weight = 1
            var k = base
            while true {
                guard index < rest.endIndex, let digit = digitValue(rest[index]) else { return nil }
                index += 1
                let (product, overflowA) = digit.multipliedReportingOverflow(by: weight)
                let (sum, overflowB) = i.addingReportingOverflow(product)
                guard !overflowA, !overflowB, sum <= Int(Int32.max) else { return nil }
                i = sum
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < t { break }
                let (nextWeight, overflowC) = weight.multipliedReportingOverflow(by: base - t)
                guard !overflowC, nextWeight <= Int(Int32.max) else { return nil }
                weight = nextWeight
                k += base
            }
            let count = output.count + 1
            bias = adapt(delta: i - oldI, count: count, isFirst: oldI == 0)
            n += i / count
            guard n <= 0x10FFFF else { return nil }
            i %= count
            output.insert(UInt32(n), at: i)
            i += 1
        }
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(output.count)
        for value in output {
            guard let scalar = Unicode.Scalar(value) else { return nil }
            scalars.append(scalar)
        }
        return scalars
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0")) + 26
        default: nil
        }
    }

    private static func adapt(delta: Int, count: Int, isFirst: Bool) -> Int {
        var delta = isFirst ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    /// Whether a decoded label is one UTS #46 would accept as it stands: not empty, not plain ASCII, in NFC,
    /// not starting with a combining mark or `xn--`, and made only of code points that map to themselves.
    ///
    /// Code points that change under NFKC_Casefold (upper case, compatibility forms, default-ignorables such as
    /// ZWJ) and unassigned, control, private-use and separator code points are refused; this is stricter than
    /// UTS #46, never looser.
    static func isValidLabel(_ label: [Unicode.Scalar]) -> Bool {
        guard let first = label.first, label.contains(where: { !$0.isASCII }) else { return false }
        if label.count >= 4 && label[0] == "x" && label[1] == "n" && label[2] == "-" && label[3] == "-" {
            return false
        }
        switch first.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return false
        default: break
        }
        for scalar in label {
            if scalar.isASCII {
                let isAllowed =
                    (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") || scalar == "-"
                guard isAllowed else { return false }
                continue
            }
            let properties = scalar.properties
            guard !properties.changesWhenNFKCCaseFolded else { return false }
            switch properties.generalCategory {
            case .unassigned, .control, .format, .surrogate, .privateUse,
                .spaceSeparator, .lineSeparator, .paragraphSeparator:
                return false
            default: continue
            }
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: label)
        // `_nfcCodeUnits` is the standard library's NFC normaliser; LinkdRouting may not import Foundation.
        return text._nfcCodeUnits.elementsEqual(text.utf8)
    }
}
