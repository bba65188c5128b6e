import Glibc

/// This process: its id, its arguments, and its end.
package enum CurrentProcess {
    /// The process id (`getpid(2)`).
    package static var id: Int32 { getpid() }

    /// The arguments after the program's name, as the bytes they are (an argument need not be UTF-8).
    package static var arguments: [[UInt8]] {
        (1..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { pointer in
                Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
            }
        }
    }

    /// The value of the environment variable `name` (`getenv(3)`), when it is set and UTF-8; nothing else is read.
    package static func variable(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(validatingCString: value)
    }

    /// The environment, read from `environ` as it is (a variable without `=`, or not UTF-8, is left out; a name given
    /// twice keeps its first value, as `getenv(3)` reads it). Unlike `ProcessInfo`'s, it costs no start-up of
    /// Foundation's process information: a click that only passes a web link on reads it.
    package static var environment: [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) }
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")),
                let name = String(validating: bytes[..<equals], as: UTF8.self),
                let value = String(validating: bytes[(equals + 1)...], as: UTF8.self), variables[name] == nil
            {
                variables[name] = value
            }
            entry += 1
        }
        return variables
    }

    /// Ends the process with `status` (`exit(3)`: buffered output is written first).
    package static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// Overwrites this process's own arguments where `/proc/<pid>/cmdline` reads them, so a link passed on the
    /// command line (`linkd open URL`, as the desktop entry runs it) is visible to other processes only for an
    /// instant: everything after the first `keeping` arguments is zeroed, in the kernel's area and in Swift's copy.
    ///
    /// Swift's `CommandLine.unsafeArgv` is a copy on Linux; the kernel's argument area is found through the
    /// `arg_start` and `arg_end` fields (48 and 49) of `/proc/self/stat`.
    package static func scrubArguments(keeping: Int) {
        for index in keeping..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            memset(pointer, 0, strlen(pointer))
        }
        guard let (start, end) = argumentArea(), end > start,
            let area = UnsafeMutablePointer<UInt8>(bitPattern: start)
        else { return }
        let length = Int(end - start)
        var offset = 0
        for _ in 0..<keeping {
            while offset < length && area[offset] != 0 { offset += 1 }
            offset += 1  // past the NUL
        }
        if offset < length { memset(area + offset, 0, length - offset) }
    }

    /// `arg_start` and `arg_end` from `/proc/self/stat`.
    private static func argumentArea() -> (UInt, UInt)? {
        guard let text = FileSystem.contents(of: "/proc/self/stat", limit: 4_096), !text.isEmpty else { return nil }
        // The command name in parentheses may hold spaces: fields are counted after the last ')'.
        guard let close = text.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // The fields after it are read as numbers where they lie: field 3 (the state) is the first.
        var numbers: [UInt] = []
        var field = 2
        var value: UInt? = nil
        for byte in text[(close + 1)...] {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") {
                if field == 48 || field == 49 { numbers.append(value ?? 0) }
                field += 1
                value = 0
                if field > 49 { break }
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), let current = value {
                value = current < UInt.max / 10 ? current * 10 + UInt(byte - UInt8(ascii: "0")) : nil
            } else {
                value = nil
            }
        }
        // arg_start is field 48, arg_end field 49.
        guard numbers.count == 2, numbers[0] > 0 else { return nil }
        return (numbers[0], numbers[1])
    }
}
