package import LinkdSystem
package import LinkdWire

extension Spool {
    /// Why a link could not be recorded. The link is refused before it is acknowledged, as worth retrying (75):
    /// nothing was done with it, and every link accepted before is kept.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The spool already holds `capacity` links that wait for their actions.
        case full(capacity: Int)
        /// The file system holding the spool `folder` has no space left (or the user's quota is used up).
        case diskFull(folder: String)
        /// The spool `folder` cannot be written: `cause` says why.
        case unwritable(folder: String, cause: SystemError)

        /// The failure the file system's `error` stands for, in the spool `folder`.
        package init(_ error: SystemError, folder: String) {
            switch error.errno {
            case .noSpace, .quotaExceeded: self = .diskFull(folder: folder)
            default: self = .unwritable(folder: folder, cause: error)
            }
        }

        /// The reason a client is given: `spool_full`, `disk_full` or `spool_unwritable`.
        package var reason: WireProtocol.Reason {
            switch self {
            case .full: .spoolFull
            case .diskFull: .diskFull
            case .unwritable: .spoolUnwritable
            }
        }

        package var description: String {
            switch self {
            case .full(let capacity):
                "linkd already holds \(capacity) links waiting for their apps; nothing was done with this one: "
                    + "open it again later"
            case .diskFull(let folder):
                "the disk holding linkd's spool '\(folder)' is full; nothing was done with the link: "
                    + "open it again once there is space"
            case .unwritable(let folder, let cause):
                "linkd cannot write its spool '\(folder)' (\(cause.errno)); nothing was done with the link: "
                    + "open it again once the folder can be written"
            }
        }
    }
}
