import Testing

@testable import LinkdRouting

/// The router's hash table: every key found under its owner, every near miss not, and key bytes compared in full
/// (eight at a time, then one by one) wherever they differ.
@Suite struct ByteKeyTableTests {
    static func key(_ length: Int, seed: Int) -> [UInt8] {
        (0..<length).map { UInt8(truncatingIfNeeded: 0x61 + ($0 * 7 + seed * 13) % 26) }
    }

    @Test func findsEveryKeyUnderItsOwnerAndNoNearMiss() {
        var table = ByteKeyTable()
        var stored: [(owner: Int, key: [UInt8], value: Int)] = []
        for length in 0...40 {
            for owner in [-1, 0, 7] {
                let key = Self.key(length, seed: owner + 2)
                table.set(owner, key, to: stored.count)
                stored.append((owner, key, stored.count))
            }
        }
        for (owner, key, value) in stored {
            #expect(table.find(owner, key) == value, "\(owner) \(key.count)")
            #expect(table.find(owner + 100, key) == nil)
            for position in key.indices {
                var nearMiss = key
                nearMiss[position] ^= 0x01
                #expect(table.find(owner, nearMiss) == nil, "\(owner) \(key.count) \(position)")
            }
            #expect(table.find(owner, key + [0x30]) == nil)  // stored keys hold letters only
        }
        table.set(0, Self.key(12, seed: 2), to: -5)
        #expect(table.find(0, Self.key(12, seed: 2)) == -5)
    }

    @Test func comparesKeyBytesWhereverTheyDiffer() {
        for length in 0...40 {
            let key = Self.key(length, seed: 1)
            let stored = [0x2F, 0x2F, 0x2F] + key + [0x2F]
            stored.withUnsafeBufferPointer { stored in
                key.withUnsafeBufferPointer { #expect(ByteKeyTable.equal(stored, from: 3, $0)) }
                for position in key.indices {
                    var other = key
                    other[position] ^= 0x20
                    other.withUnsafeBufferPointer {
                        #expect(!ByteKeyTable.equal(stored, from: 3, $0), "\(length) \(position)")
                    }
                }
            }
        }
    }
}
