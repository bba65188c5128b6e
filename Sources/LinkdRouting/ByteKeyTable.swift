/// A hash table from byte strings to integers that is looked up with a buffer, so a lookup allocates nothing.
///
/// Open addressing with linear probing over a power-of-two slot array; FNV-1a hashes.
struct ByteKeyTable: Sendable {
    private var keys: [[UInt8]] = []
    private var values: [Int] = []
    private var slots: [Int] = []
    private var slotHashes: [UInt64] = []

    /// Whether the table holds nothing.
    var isEmpty: Bool { keys.isEmpty }

    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The value stored for `key`, or `nil`.
    func find(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !keys.isEmpty else { return nil }
        let hash = Self.hash(key)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            let index = slots[slot]
            if slotHashes[slot] == hash && Self.equal(keys[index], key) { return values[index] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Byte equality by length, then `memcmp`-like comparison of the buffers.
    static func equal(_ stored: [UInt8], _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard stored.count == key.count else { return false }
        return stored.withUnsafeBytes { storedBytes in
            storedBytes.elementsEqual(UnsafeRawBufferPointer(key))
        }
    }

    /// The value stored for `key`, or `nil`.
    func find(_ key: [UInt8]) -> Int? {
        key.withUnsafeBufferPointer { find($0) }
    }

    /// Stores `value` for `key`, replacing any value it had.
    mutating func set(_ key: [UInt8], to value: Int) {
        if let existing = keys.firstIndex(of: key) {
            values[existing] = value
            return
        }
        keys.append(key)
        values.append(value)
        if keys.count * 2 > slots.count {
            rebuild(capacity: Swift.max(8, slots.count * 2))
        } else {
            place(keys.count - 1)
        }
    }

    private mutating func rebuild(capacity: Int) {
        slots = [Int](repeating: -1, count: capacity)
        slotHashes = [UInt64](repeating: 0, count: capacity)
        for index in keys.indices { place(index) }
    }

    private mutating func place(_ index: Int) {
        let hash = keys[index].withUnsafeBufferPointer { Self.hash($0) }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = index
        slotHashes[slot] = hash
    }
}
