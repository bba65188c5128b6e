import Foundation
import Testing

/// The shape the product's sources keep: the C library and the system calls behind LinkdSystem alone, and functions
/// a reader can hold (none over ``longest`` lines, from its declaration to its closing brace).
struct ProductShapeTests {
    static let longest = 60
    /// The modules `linkd` is built from, and the library app developers test with.
    static let productModules = ProductImportsTests.productModules + ["LinkdWire", "LinkdTesting", "LinkdClient"]
    /// Every module the package builds but the test support and the C modules: the benchmarks too.
    static let modules = productModules + ["linkd-bench", "linkd-mini-client"]

    /// Whether `line` declares a function, an initialiser or a deinitialiser (after its attributes and modifiers).
    static func declaresFunction(_ line: Substring) -> Bool {
        let words = line.split(separator: " ").drop { $0.hasPrefix("@") || modifiers.contains($0) }
        guard let first = words.first else { return false }
        return first == "func" || first == "deinit" || first.hasPrefix("init(") || first.hasPrefix("init?(")
            || first.hasPrefix("init<")
    }

    static let modifiers: Set<Substring> = [
        "public", "package", "internal", "fileprivate", "private", "static", "class", "final", "override", "mutating",
        "nonmutating", "nonisolated", "convenience", "required", "consuming", "borrowing", "isolated", "dynamic",
    ]

    /// The code of each line with its string literals' text and its comment taken out (so that their braces do not
    /// count); the lines of a multi-line string literal are empty.
    static func code(of text: String) -> [Substring] {
        var inMultiline = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            if inMultiline {
                if line.contains("\"\"\"") { inMultiline = false }
                return ""
            }
            var code = ""
            var inString = false
            var escaped = false
            var characters = line[...]
            while let character = characters.popFirst() {
                if inString {
                    if escaped {
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        inString = false
                    }
                    continue
                }
                if character == "\"" {
                    if characters.hasPrefix("\"\"") {
                        inMultiline = !characters.dropFirst(2).contains("\"\"\"")
                        break
                    }
                    inString = true
                } else if character == "/" && characters.first == "/" {
                    break
                }
                code.append(character)
            }
            return code[...]
        }
    }

    /// The length in lines of each function of `text` that has a body, with the line it starts at.
    static func functionLengths(of text: String) -> [(line: Int, length: Int)] {
        let lines = code(of: text)
        var lengths: [(line: Int, length: Int)] = []
        for (start, line) in lines.enumerated() {
            guard declaresFunction(line.drop { $0 == " " }) else { continue }
            var depth = 0
            var opened = false
            for (index, code) in lines[start...].enumerated() {
                for character in code {
                    if character == "{" {
                        depth += 1
                        opened = true
                    } else if character == "}" {
                        depth -= 1
                    }
                }
                if opened && depth <= 0 {
                    lengths.append((start + 1, index + 1))
                    break
                }
                // A requirement of a protocol has no body: its declaration ends before another starts.
                if !opened && index > 0 && declaresFunction(code.drop { $0 == " " }) { break }
            }
        }
        return lengths
    }

    @Test func measuresAFunctionFromItsDeclarationToItsClosingBrace() {
        let text = """
            struct S {
                @discardableResult package static func f(_ x: Int) -> String {
                    let brace = "}" // a } in a comment
                    let text = \"\"\"
                        }
                        \"\"\"
                    return brace + text
                }
                init?(y: Int) { nil }
            }
            protocol P {
                func required()
                func other()
            }
            """
        let lengths = Self.functionLengths(of: text)
        #expect(lengths.map(\.line) == [2, 9])
        #expect(lengths.map(\.length) == [7, 1])
    }

    @Test(arguments: modules)
    func noFunctionIsLongerThanAReaderCanHold(_ module: String) throws {
        for (file, text) in try Self.sources(of: module) {
            for function in Self.functionLengths(of: text) where function.length > Self.longest {
                Issue.record("\(module)/\(file):\(function.line): a function of \(function.length) lines")
            }
        }
    }

    /// Only LinkdSystem speaks to the C library and libsystemd: every other module of the product reaches them
    /// through it. (The benchmarks measure system calls themselves.)
    @Test(arguments: productModules.filter { $0 != "LinkdSystem" })
    func onlyLinkdSystemImportsTheCLibraryOrLibsystemd(_ module: String) throws {
        for (file, text) in try Self.sources(of: module) {
            let offending = ProductImportsTests.importedModules(of: text).filter { ["Glibc", "CSystemd"].contains($0) }
            #expect(offending.isEmpty, "\(module)/\(file) imports \(offending)")
        }
    }

    /// The command line runs the daemon (`linkd daemon`) and reaches it over its socket: it reads apps.d, asks for a
    /// reset email and signs in through the lower modules, and imports the daemon's module in the one command that
    /// runs it.
    @Test func theCommandLineImportsTheDaemonOnlyToRunIt() throws {
        let importing = try Self.sources(of: "LinkdCLI").filter { _, text in
            ProductImportsTests.importedModules(of: text).contains("LinkdDaemon")
        }
        #expect(importing.map(\.0) == ["DaemonCommand.swift"])
    }

    /// Each Swift file of `module`, by its path in the module's folder, with its text.
    static func sources(of module: String) throws -> [(String, String)] {
        let folder = ProductImportsTests.sources.appendingPathComponent(module)
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted()
        #expect(!files.isEmpty)
        return try files.map { ($0, try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) }
    }
}
