import FoundationEssentials
import Glibc

/// One fuzz target: its name and the check every input goes through.
///
/// A check never throws: an input the code under test refuses is fine, a crash or a broken invariant is not, and a
/// broken invariant stops the process (``require(_:_:)``), which libFuzzer reports as a crash and keeps the
/// input of. The same check runs under libFuzzer (`scripts/fuzz`), in a fuzz executable's replay mode
/// (`fuzz-link FILE...`) and in the tests that replay the corpus and the inputs of past findings.
package struct FuzzTarget: Sendable {
    /// The name of the target, its executable without `fuzz-`, and its folders under `Fuzz/corpus` and `Fuzz/found`.
    package let name: String
    private let body: @Sendable (UnsafeBufferPointer<UInt8>) -> Void

    init(_ name: String, _ body: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Void) {
        self.name = name
        self.body = body
    }

    /// Every target, by name.
    package static let all: [FuzzTarget] = [
        link, formats, apps, json, wire, backends, desktop, lines, redactor, spool, defaults, pkce, appServicesSession,
        association,
    ]

    /// Runs the check on one input.
    package func check(_ bytes: UnsafeBufferPointer<UInt8>) {
        body(bytes)
    }

    /// Runs the check on one input.
    package func check(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { check($0) }
    }

    /// Runs the check on one input as libFuzzer hands it over; returns 0, as libFuzzer wants.
    package func run(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        check(UnsafeBufferPointer(start: size == 0 ? nil : data, count: size))
        return 0
    }

    /// A fuzz executable's `main`. Built for fuzzing (`-sanitize=fuzzer -D LINKD_FUZZING`), it hands the command
    /// line to libFuzzer's driver with `entry`, a C function that calls ``run(_:_:)``; built otherwise, it replays
    /// the files and folders named on the command line (``replay(_:)``).
    package func main(_ entry: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
        #if LINKD_FUZZING
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, entry))
        #else
        replay(CommandLine.arguments.dropFirst())
        exit(0)
        #endif
    }

    /// The replay mode of a fuzz executable built without libFuzzer: runs the check on every file named by
    /// `paths`, and on every file in a folder named, then says how many inputs passed. Exits 2 when a path
    /// cannot be read.
    package func replay(_ paths: some Sequence<String>) {
        var count = 0
        for path in paths {
            guard let inputs = Self.inputs(at: path) else {
                print("fuzz-\(name): cannot read '\(path)'")
                exit(2)
            }
            for input in inputs {
                check(input)
                count += 1
            }
        }
        print("fuzz-\(name): \(count) inputs replayed, every check held")
    }

    /// The contents of the file at `path`, or of every file in the folder at `path` in name order; `nil` when it
    /// cannot be read.
    package static func inputs(at path: String) -> [[UInt8]]? {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        guard isDirectory else { return FileManager.default.contents(atPath: path).map { [Array($0)] } }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
        var inputs: [[UInt8]] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            guard let data = FileManager.default.contents(atPath: path + "/" + name) else { return nil }
            inputs.append(Array(data))
        }
        return inputs
    }
}

/// Stops the process when an invariant does not hold: libFuzzer reports the stop as a crash and keeps the input.
func require(_ condition: @autoclosure () -> Bool, _ invariant: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(invariant())") }
}

#if LINKD_FUZZING
/// libFuzzer's `int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t))`,
/// which runs the fuzzer as its own `main` would. (Three pointers in, an int out: the Swift and C conventions pass
/// them alike.)
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
#endif
