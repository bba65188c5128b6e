import Glibc

/// A path no one but root and one user can change, checked as sshd's `StrictModes` checks a user's files: linkd takes
/// orders only from apps.d files and `exec` programs that pass.
///
/// The path is followed from `/`, one component at a time (`lstat(2)`), through every symbolic link (`readlink(2)`,
/// a relative target taken from the link's folder). Each component met on the way, a link itself and every folder
/// above the final file included, must be owned by root or the user. Each one that is not a link must be writable by
/// neither its group nor others, except a folder with the sticky bit (`/tmp`, mode 1777) on the way to the final one:
/// there no one else can remove or replace what root or the user put in it, and what comes next is checked in turn.
/// The final file or folder has no such exception.
package struct TrustedPath: Sendable, Equatable {
    /// Why a path is not trusted: the component at fault, and what is wrong with it.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong with a component.
        package enum Reason: Sendable, Equatable {
            /// Owned by neither root nor the user: by this uid.
            case owner(UInt32)
            /// Its group may write it.
            case writableByGroup
            /// Users who are neither its owner nor in its group may write it.
            case writableByOthers
            /// Both its group and others may write it.
            case writableByGroupAndOthers
            /// More than 40 symbolic links on the way (`ELOOP`).
            case tooManyLinks
            /// `lstat(2)` or `readlink(2)` failed with this errno.
            case unreadable(Int32)
        }

        /// The component at fault, as an absolute path with no symbolic link in its folders.
        package var path: String
        /// What is wrong with it.
        package var reason: Reason

        /// A failure of the component at `path`, for `reason`.
        package init(path: String, reason: Reason) {
            self.path = path
            self.reason = reason
        }

        /// `'/etc/linkd/apps.d' is writable by its group`: the path and why, one clause.
        package var description: String {
            switch reason {
            case .owner(let uid): "'\(path)' is owned by another user (uid \(uid))"
            case .writableByGroup: "'\(path)' is writable by its group"
            case .writableByOthers: "'\(path)' is writable by others"
            case .writableByGroupAndOthers: "'\(path)' is writable by its group and others"
            case .tooManyLinks: "'\(path)' has too many symbolic links on the way"
            case .unreadable(let code): "'\(path)' cannot be checked: " + String(cString: strerror(code)).lowercased()
            }
        }
    }

    /// The path as given.
    package let path: String
    /// The same file's absolute path with no symbolic link in it.
    package let resolved: String

    /// The most symbolic links followed, as the kernel's `ELOOP` limit.
    static let linkLimit = 40

    /// Checks `path` for `user` (this process's effective uid, `geteuid(2)`, unless given); a relative path is taken
    /// from the working folder.
    ///
    /// - Throws: ``Failure`` naming the first component on the way that fails, and why; a component that does not
    ///   exist or cannot be read is ``Failure/Reason/unreadable(_:)``.
    package init(checking path: String, user: UInt32 = geteuid()) throws(Failure) {
        self.path = path
        let absolute = path.hasPrefix("/") ? path : Self.workingFolder() + "/" + path
        var pending = Array(Self.components(of: absolute).reversed())
        var folders: [String] = []
        var links = 0
        try Self.check("/", user: user, isFinal: false)
        while let name = pending.popLast() {
            if name == "." { continue }
            if name == ".." {
                _ = folders.popLast()
                continue
            }
            let current = "/" + (folders + [name]).joined(separator: "/")
            let status = try Self.check(current, user: user, isFinal: false)
            guard status.st_mode & S_IFMT == S_IFLNK else {
                folders.append(name)
                continue
            }
            links += 1
            guard links <= Self.linkLimit else { throw Failure(path: current, reason: .tooManyLinks) }
            let target = try Self.target(of: current)
            if target.hasPrefix("/") { folders = [] }
            pending += Self.components(of: target).reversed()
        }
        resolved = "/" + folders.joined(separator: "/")
        // On the way every folder may be sticky; the file or folder the walk ends on may not.
        try Self.check(resolved, user: user, isFinal: true)
    }

    /// The non-empty components of `path`.
    private static func components(of path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }

    /// The working folder (`getcwd(3)`), or `/` when it has none.
    private static func workingFolder() -> String {
        guard let pointer = getcwd(nil, 0) else { return "/" }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// The status of `path`, not following a final link, after checking its owner and, unless it is a link, its mode;
    /// a sticky folder others may write passes unless `isFinal`.
    @discardableResult
    private static func check(_ path: String, user: UInt32, isFinal: Bool) throws(Failure) -> stat {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw Failure(path: path, reason: .unreadable(errno)) }
        guard status.st_uid == 0 || status.st_uid == user else {
            throw Failure(path: path, reason: .owner(status.st_uid))
        }
        let kind = status.st_mode & S_IFMT
        let (group, others) = (status.st_mode & S_IWGRP != 0, status.st_mode & S_IWOTH != 0)
        guard kind != S_IFLNK, group || others else { return status }
        if kind == S_IFDIR, status.st_mode & S_ISVTX != 0, !isFinal { return status }
        throw Failure(
            path: path,
            reason: group && others ? .writableByGroupAndOthers : group ? .writableByGroup : .writableByOthers
        )
    }

    /// The target of the symbolic link at `path`, as written.
    private static func target(of path: String) throws(Failure) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { throw Failure(path: path, reason: .unreadable(errno)) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
