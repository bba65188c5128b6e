/// A hash table from (number, byte string) keys to integers that is looked up with a buffer, so a lookup
/// allocates nothing and retains nothing.
///
/// Open addressing with linear probing over a power-of-two slot array. Key bytes are stored end to end in one
/// array and hashed eight bytes at a time. The number is what the bytes belong to (a trie node, say).
struct ByteKeyTable: Sendable {
    /// Every key, end to end.
    private var keyBytes: [UInt8] = []
    /// Where each key's bytes stand in `keyBytes`.
    private var keyRanges: [Range<Int>] = []
    /// Each key's number.
    private var keyOwners: [Int] = []
    private var values: [Int] = []
    /// Each slot's key index, or -1 when empty.
    private var slots: [Int] = []
    private var slotHashes: [UInt64] = []

    /// Whether the table holds nothing.
    var isEmpty: Bool { values.isEmpty }

    static func hash(_ owner: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = mix(0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: Int64(owner))) ^ UInt64(bytes.count)
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return mix(hash) }
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = mix(hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        return mix(hash ^ tail)
    }

    /// A multiply-xorshift step (the finaliser of SplitMix64).
    private static func mix(_ value: UInt64) -> UInt64 {
        var mixed = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// The value stored for `key` of `owner`, or `nil`.
    func find(_ owner: Int, _ key: UnsafeBufferPointer<UInt8>) -> Int? {
        index(of: owner, key).map { values[$0] }
    }

    /// The index of `key` of `owner` among the keys, or `nil`.
    private func index(of owner: Int, _ key: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !values.isEmpty else { return nil }
        let hash = Self.hash(owner, key)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            let index = slots[slot]
            if slotHashes[slot] == hash && keyOwners[index] == owner && keyEquals(index, key) { return index }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Whether key `index` is `key`, byte for byte.
    private func keyEquals(_ index: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let range = keyRanges[index]
        guard range.count == key.count else { return false }
        return keyBytes.withUnsafeBufferPointer { stored in
            for offset in 0..<key.count where stored[range.lowerBound + offset] != key[offset] { return false }
            return true
        }
    }

    /// The value stored for `key` of `owner`, or `nil`.
    func find(_ owner: Int, _ key: [UInt8]) -> Int? {
        key.withUnsafeBufferPointer { find(owner, $0) }
    }

    /// Stores `value` for `key` of `owner`, replacing any value it had.
    mutating func set(_ owner: Int, _ key: [UInt8], to value: Int) {
        if let existing = key.withUnsafeBufferPointer({ index(of: owner, $0) }) {
            values[existing] = value
            return
        }
        keyRanges.append(keyBytes.count..<(keyBytes.count + key.count))
        keyBytes.append(contentsOf: key)
        keyOwners.append(owner)
        values.append(value)
        if values.count * 2 > slots.count {
            rebuild(capacity: Swift.max(8, slots.count * 2))
        } else {
            place(values.count - 1)
        }
    }

    private mutating func rebuild(capacity: Int) {
        slots = [Int](repeating: -1, count: capacity)
        slotHashes = [UInt64](repeating: 0, count: capacity)
        for index in values.indices { place(index) }
    }

    private mutating func place(_ index: Int) {
        let range = keyRanges[index]
        let hash = keyBytes.withUnsafeBufferPointer {
            Self.hash(keyOwners[index], UnsafeBufferPointer(rebasing: $0[range]))
        }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = index
        slotHashes[slot] = hash
    }
}
