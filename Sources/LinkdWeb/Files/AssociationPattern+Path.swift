extension AssociationPattern {
    /// The patterns a path pattern of a file (`/` of a component, a legacy `paths` entry) stands for, as Apple's matcher
    /// reads one: its trailing slashes do not count (`/buy/` is `/buy`, the link's path being read the same way), its
    /// leading slash may be left out (`help/*` is `/help/*`, as Apple's Components page writes one), and one that ends
    /// in `/*` matches the path without its last slash too (`/buy/*` matches `/buy`). A slash is never added to the
    /// link: `/id/????` does not match `/id/481`.
    static func path(_ text: String, variables: [String: [[Token]]]) -> [AssociationPattern] {
        var tokens = AssociationPattern(text, variables: variables).tokens
        while tokens.count > 1, tokens.last == .scalar("/") { tokens.removeLast() }
        switch tokens.first {
        case .scalar("/")?, .any?, .run?, nil: break
        case .scalar?, .oneOf?, .word?, .alternatives?: tokens.insert(.scalar("/"), at: 0)
        }
        let whole = AssociationPattern(tokens: tokens)
        guard tokens.count > 2, tokens.suffix(2) == [.scalar("/"), .run] else { return [whole] }
        return [whole, AssociationPattern(tokens: Array(tokens.dropLast(2)))]
    }
}
