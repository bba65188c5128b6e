/// A hash table from (number, byte string) keys to integers that is looked up with a buffer, so a lookup
/// allocates nothing and retains nothing.
///
/// Open addressing with linear probing over a power-of-two slot array. Key bytes are stored end to end in one
/// array and hashed eight bytes at a time. The number is what the bytes belong to (a trie node, say).
struct ByteKeyTable: Sendable {
    /// One slot of the open-addressing array: all a probe reads before comparing key bytes, in 24 bytes.
    private struct Slot: Sendable {
        var hash: UInt64 = 0
        /// The key's index, or -1 when the slot is empty.
        var index: Int32 = -1
        var owner: Int32 = 0
        var keyStart: Int32 = 0
        var keyCount: Int32 = 0
    }

    /// Every key, end to end.
    private var keyBytes: [UInt8] = []
    private var values: [Int] = []
    private var slots: [Slot] = []

    /// Whether the table holds nothing.
    var isEmpty: Bool { values.isEmpty }

    static func hash(_ owner: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = mix(0x9E37_79B9_7F4A_7C15 ^ UInt64(bitPattern: Int64(owner))) ^ UInt64(bytes.count)
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return mix(hash) }
        var offset = 0
        // One multiply per eight bytes and the full mix once at the end: the keys are the router's own patterns,
        // which a link can only look up, so the table needs spread, not resistance to chosen collisions.
        while offset + 8 <= bytes.count {
            hash = (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 29
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
        return slots.withUnsafeBufferPointer { slots in
            keyBytes.withUnsafeBufferPointer { stored in
                let mask = slots.count - 1
                var position = Int(truncatingIfNeeded: hash) & mask
                while slots[position].index >= 0 {
                    let slot = slots[position]
                    if slot.hash == hash && Int(slot.owner) == owner && Int(slot.keyCount) == key.count
                        && Self.equal(stored, from: Int(slot.keyStart), key)
                    {
                        return Int(slot.index)
                    }
                    position = (position + 1) & mask
                }
                return nil
            }
        }
    }

    /// Whether the stored bytes from `start` begin with `key`.
    static func equal(
        _ stored: UnsafeBufferPointer<UInt8>,
        from start: Int,
        _ key: UnsafeBufferPointer<UInt8>
    )
        -> Bool
    {
        precondition(start + key.count <= stored.count, "a slot's key lies within the stored bytes")
        var offset = 0
        if let storedBase = UnsafeRawPointer(stored.baseAddress), let keyBase = UnsafeRawPointer(key.baseAddress) {
            // Eight bytes at a time.
            while offset + 8 <= key.count {
                let left = storedBase.loadUnaligned(fromByteOffset: start + offset, as: UInt64.self)
                guard left == keyBase.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
                offset += 8
            }
        }
        while offset < key.count {
            guard stored[start + offset] == key[offset] else { return false }
            offset += 1
        }
        return true
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
        let hash = key.withUnsafeBufferPointer { Self.hash(owner, $0) }
        let slot = Slot(
            hash: hash,
            index: Int32(values.count),
            owner: Int32(owner),
            keyStart: Int32(keyBytes.count),
            keyCount: Int32(key.count)
        )
        keyBytes.append(contentsOf: key)
        values.append(value)
        if values.count * 2 > slots.count {
            let old = slots
            slots = [Slot](repeating: Slot(), count: Swift.max(8, slots.count * 2))
            for placed in old where placed.index >= 0 { place(placed) }
        }
        place(slot)
    }

    private mutating func place(_ slot: Slot) {
        let mask = slots.count - 1
        var position = Int(truncatingIfNeeded: slot.hash) & mask
        while slots[position].index >= 0 { position = (position + 1) & mask }
        slots[position] = slot
    }
}
