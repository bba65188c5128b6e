import Testing

@testable import LinkdRouting

/// The lanes of a vector test as bits, on this processor's road and on the multiply every other one takes.
@Suite struct LaneBitsTests {
    /// The bit of each lane whose top bit is set, lane by lane.
    static func expected(_ lanes: SIMD16<Int8>) -> UInt32 {
        (0..<16).reduce(0) { bits, lane in lanes[lane] < 0 ? bits | 1 << UInt32(lane) : bits }
    }

    @Test func everyLaneGivesItsOwnBitOnBothRoads() {
        var random = SplitMix64(seed: 0x1F83_D9AB_FB41_BD6B)
        var seen = Set<UInt32>()
        for round in 0..<20_000 {
            // Test results (0 or -1 in each lane) and, a round in four, any byte at all: only the top bit counts.
            var lanes = SIMD16<Int8>()
            for lane in 0..<16 {
                let byte = Int8(truncatingIfNeeded: random.next())
                lanes[lane] = round % 4 == 0 ? byte : (byte < 0 ? -1 : 0)
            }
            let expected = Self.expected(lanes)
            #expect(LaneBits.of(lanes) == expected)
            #expect(LaneBits.gathered(unsafeBitCast(lanes, to: SIMD2<UInt64>.self)) == expected)
            seen.insert(expected)
        }
        #expect(LaneBits.of(SIMD16<Int8>(repeating: 0)) == 0)
        #expect(LaneBits.of(SIMD16<Int8>(repeating: -1)) == 0xFFFF)
        #expect(seen.count > 10_000)
    }

    @Test func aMaskGivesTheLanesItSets() {
        let bytes = SIMD16<UInt8>(Array("a&b=c%d&&==%%xyz".utf8))
        let marks = bytes .== SIMD16(repeating: UInt8(ascii: "&")) .| (bytes .== SIMD16(repeating: UInt8(ascii: "=")))
        #expect(LaneBits.of(marks) == 0b0111_1000_1010)  // lanes 1, 3, 7, 8, 9 and 10
    }
}
