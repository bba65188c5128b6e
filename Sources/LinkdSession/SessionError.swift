/// Why a step of the session layer failed.
package enum SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The backend answered with an error.
    case backend(BackendError)
    /// The backend gave no answer.
    case transport(TransportError)
    /// The backend answered 2xx with something that is not what its contract says.
    case badResponse(String)

    package var description: String {
        switch self {
        case .backend(let error): error.description
        case .transport(let error): error.description
        case .badResponse(let what): "the backend's answer cannot be read: \(what)"
        }
    }
}
