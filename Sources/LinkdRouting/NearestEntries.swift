/// The first entries added to a set of patterns that falls into groups, kept so that the first few outside any one
/// group can be read without going through the set: how an explanation finds its nearest candidates.
///
/// Entries arrive in declaration order, so the first ones kept are the smallest. Each group keeps at most `limit`
/// and the whole at most twice that: whichever group is left out, the first `limit` of the others are among them
/// (a group left out takes at most `limit` away; an entry not kept had `limit` smaller ones of its own group, or
/// the table was full of smaller ones).
struct NearestEntries<Group: Equatable & Sendable>: Sendable {
    /// How many entries a read gives at most.
    static var limit: Int { 3 }

    private var kept: [(entry: Int, group: Group)] = []

    /// Adds `entry` of `group`; it must be larger than every entry added before.
    mutating func add(_ entry: Int, group: Group) {
        guard kept.count < 2 * Self.limit else { return }
        var inGroup = 0
        for element in kept where element.group == group { inGroup += 1 }
        guard inGroup < Self.limit else { return }
        kept.append((entry, group))
    }

    /// The first entries of every group but `excluded`, at most ``limit``, smallest first.
    func first(excluding excluded: Group?) -> [Int] {
        var entries: [Int] = []
        for element in kept where element.group != excluded {
            entries.append(element.entry)
            if entries.count == Self.limit { break }
        }
        return entries
    }
}
