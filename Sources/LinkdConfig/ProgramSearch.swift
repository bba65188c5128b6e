import FoundationEssentials
package import LinkdSystem

/// Finds the program an `exec` action names, once, when the configuration is read, so that the daemon runs exactly
/// the file found: a name without `/` is looked up in `$HOME/.local/bin`, `/usr/local/bin`, `/usr/bin` and `/bin`,
/// in that order — never in the `PATH` or working directory of whichever process reads the configuration. The file
/// found must be a ``TrustedPath``: no one but root and this user can change it.
package struct ProgramSearch: Sendable, Equatable {
    /// Why a program cannot be run.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// A bare name found in none of the folders searched.
        case notFound(String, searched: [String])
        /// A path with a `/` that does not start at `/`.
        case relative(String)
        /// An absolute path where nothing is.
        case missing(String)
        /// An absolute path, or a file found by name, that is not an executable file.
        case notExecutable(String)
        /// An executable file, absolute or found by name, that someone other than root and this user can change.
        case notTrusted(String, TrustedPath.Failure)

        package var description: String {
            switch self {
            case .notFound(let name, let searched):
                "program '\(name)' not found in \(searched.joined(separator: ":"))"
            case .relative(let path):
                "program '\(path)' is a relative path; give its absolute path, or its name alone to look it up"
            case .missing(let path): "program '\(path)' does not exist"
            case .notExecutable(let path): "program '\(path)' is not an executable file"
            case .notTrusted(let path, let failure): "program '\(path)' is not trusted: \(failure)"
            }
        }
    }

    /// The folders a bare name is looked up in, first first.
    package var directories: [String]

    /// A search of `directories`.
    package init(directories: [String]) {
        self.directories = directories
    }

    /// The search for a user whose home folder is `home`: `home/.local/bin`, `/usr/local/bin`, `/usr/bin`, `/bin`.
    package init(home: String) {
        self.init(directories: [home + "/.local/bin", "/usr/local/bin", "/usr/bin", "/bin"])
    }

    /// The search for `environment`, with `HOME` read as ``XDGDirectories`` reads it.
    package static func installed(environment: [String: String] = ProcessInfo.processInfo.environment) -> ProgramSearch
    {
        ProgramSearch(home: XDGDirectories(environment: environment).home)
    }

    /// The absolute path of `program`: itself when absolute, else the first executable file of that name in
    /// ``directories``. The path is returned as found: a symlink is not resolved (but its target is checked).
    ///
    /// - Throws: ``Failure`` when it is relative with a `/`, missing, not an executable file, or found nowhere, and
    ///   ``Failure/notTrusted(_:_:)`` when the file found, or a folder above it, fails ``TrustedPath``; the search
    ///   never goes on past a file it does not trust.
    package func resolve(_ program: String) throws(Failure) -> String {
        guard program.contains("/") else {
            for directory in directories where Self.isExecutableFile(directory + "/" + program) {
                return try Self.trusted(directory + "/" + program)
            }
            throw .notFound(program, searched: directories)
        }
        guard program.hasPrefix("/") else { throw .relative(program) }
        guard FileManager.default.fileExists(atPath: program) else { throw .missing(program) }
        guard Self.isExecutableFile(program) else { throw .notExecutable(program) }
        return try Self.trusted(program)
    }

    /// `path`, when it is a ``TrustedPath``.
    private static func trusted(_ path: String) throws(Failure) -> String {
        do throws(TrustedPath.Failure) {
            _ = try TrustedPath(checking: path)
            return path
        } catch {
            throw .notTrusted(path, error)
        }
    }

    /// Whether `path` is, after symlinks, a file (not a folder) that this user may execute.
    private static func isExecutableFile(_ path: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory
            && FileManager.default.isExecutableFile(atPath: path)
    }
}
