import Glibc

/// A process's mount table, `/proc/PID/mountinfo`, as proc_pid_mountinfo(5) writes it. The kernel shows it to any
/// process of the same user, in whatever user namespace, where a process's root (`/proc/PID/root`) needs ptrace
/// access, which a sibling user namespace never has.
struct MountTable: Sendable, Equatable {
    /// One mount: which file system (`major:minor`), which of its files or folders (`root`, a path in it), where.
    struct Mount: Sendable, Equatable {
        var device: dev_t
        var root: String
        var mountPoint: String
    }

    var mounts: [Mount]

    /// The mounts of `text`, in its order; a line that does not read as a mount is left out.
    init(parsing text: String) {
        mounts = text.split(separator: "\n").compactMap(Self.mount(inLine:))
    }

    /// The mount table of the process `processID` (`"self"` for this one); `nil` when it cannot be read whole
    /// (it holds more than 4 MiB).
    init?(ofProcess processID: String) {
        let limit = 4 << 20
        guard let bytes = FileSystem.contents(of: "/proc/\(processID)/mountinfo", limit: limit + 1),
            bytes.count <= limit
        else { return nil }
        self.init(parsing: String(decoding: bytes, as: UTF8.self))
    }

    /// The file or folder mounted last at `mountPoint`, the one a path there reaches.
    func top(at mountPoint: String) -> Mount? { mounts.last { $0.mountPoint == mountPoint } }

    /// Where `mount`'s file is in this table's tree: below a mount of the same file system whose root holds it.
    func paths(reaching mount: Mount) -> [String] {
        mounts.reversed().compactMap { candidate in
            guard candidate.device == mount.device else { return nil }
            if candidate.root == mount.root { return candidate.mountPoint }
            let folder = candidate.root == "/" ? "/" : candidate.root + "/"
            guard mount.root.hasPrefix(folder) else { return nil }
            let rest = mount.root.dropFirst(folder.count)
            return candidate.mountPoint == "/" ? "/" + rest : candidate.mountPoint + "/" + rest
        }
    }

    /// `ID PARENT MAJOR:MINOR ROOT MOUNT-POINT ...`, the paths with `\ooo` escapes.
    private static func mount(inLine line: Substring) -> Mount? {
        let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: false)
        guard fields.count == 6 else { return nil }
        let numbers = fields[2].split(separator: ":")
        guard numbers.count == 2, let major = UInt32(numbers[0]), let minor = UInt32(numbers[1]),
            let root = unescaped(fields[3]), let mountPoint = unescaped(fields[4]), root.hasPrefix("/"),
            mountPoint.hasPrefix("/")
        else { return nil }
        return Mount(device: device(major: dev_t(major), minor: dev_t(minor)), root: root, mountPoint: mountPoint)
    }

    /// The device number of `major:minor`, as glibc's `makedev(3)` makes it.
    static func device(major: dev_t, minor: dev_t) -> dev_t {
        (major & 0xffff_f000) << 32 | (major & 0xfff) << 8 | (minor & 0xffff_ff00) << 12 | minor & 0xff
    }

    /// `field` with its octal escapes (`\040` for a space, `\134` for a backslash) turned back into bytes.
    private static func unescaped(_ field: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = Array(field.utf8)[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                continue
            }
            let digits = utf8.prefix(3)
            guard digits.count == 3, digits.allSatisfy({ (48...55).contains($0) }) else { return nil }
            let value = digits.reduce(0) { $0 * 8 + Int($1 - 48) }
            guard value < 256 else { return nil }
            bytes.append(UInt8(value))
            utf8 = utf8.dropFirst(3)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
