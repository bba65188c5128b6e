/// A person's name as Sign in with Apple gives it, once: given name and family name, either of which may be absent.
public struct PersonName: Sendable, Hashable {
    public var firstName: String?
    public var lastName: String?

    public init(firstName: String?, lastName: String?) {
        self.firstName = firstName
        self.lastName = lastName
    }

    /// `{"firstName": …, "lastName": …}`, with the parts there are.
    public var json: JSONValue {
        .object(
            [("firstName", firstName), ("lastName", lastName)].compactMap { key, value in
                value.map { (key, .string($0)) }
            }
        )
    }
}
