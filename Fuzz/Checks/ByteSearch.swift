extension FuzzTarget {
    /// Whether `needle` occurs in `haystack`, byte for byte, unlike `String.contains`, which compares characters
    /// (so that `é` holds no `e`); an empty needle always does.
    static func contains(_ haystack: some StringProtocol, _ needle: some StringProtocol) -> Bool {
        contains(Array(haystack.utf8)[...], Array(needle.utf8))
    }

    /// Whether `needle` occurs in `haystack`, byte for byte; an empty needle always does. Knuth–Morris–Pratt: linear
    /// in both lengths, however near the misses.
    static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        // fallback[i]: the length of the longest proper prefix of needle[...i] that is also its suffix.
        var fallback = [Int](repeating: 0, count: needle.count)
        var length = 0
        for index in needle.indices.dropFirst() {
            while length > 0 && needle[index] != needle[length] { length = fallback[length - 1] }
            if needle[index] == needle[length] { length += 1 }
            fallback[index] = length
        }
        var matched = 0
        for byte in haystack {
            while matched > 0 && byte != needle[matched] { matched = fallback[matched - 1] }
            if byte == needle[matched] { matched += 1 }
            if matched == needle.count { return true }
        }
        return false
    }
}
