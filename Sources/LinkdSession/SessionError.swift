/// Why a step of the session layer failed.
package enum SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The backend answered with an error.
    case backend(BackendError)
    /// The backend gave no answer.
    case transport(TransportError)
    /// The backend answered 2xx with something that is not what its contract says.
    case badResponse(String)
    /// The backend's own token says its session was not made by an emailed link (signed in by password, OAuth,
    /// SSO): the authentication methods its `amr` names, shown as plain words.
    case notAnEmailedLink(methods: [String])
    /// The account has a second factor the backend asks for, and every one it has is of a type linkd cannot prove
    /// with a code (a security key): their types, as the backend names them.
    case noUsableSecondFactor(types: [String])

    package var description: String {
        switch self {
        case .backend(let error): error.description
        case .transport(let error): error.description
        case .badResponse(let what): "the backend's answer cannot be read: \(what)"
        case .notAnEmailedLink(let methods):
            "the backend's token says this session was signed in by "
                + (methods.isEmpty ? "no method it names" : methods.joined(separator: ", "))
                + ", not by an emailed link; linkd resets a password only with a session made by a reset email"
        case .noUsableSecondFactor(let types):
            "the account's second factor (\(types.joined(separator: ", "))) is not one linkd can prove with a code "
                + "(it proves authenticator apps and texted codes): change the password on the app's website"
        }
    }
}
