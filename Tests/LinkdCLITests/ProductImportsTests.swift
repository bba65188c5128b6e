import Foundation
import Testing

/// The modules linked into `linkd` import FoundationEssentials, never Foundation: Foundation brings ICU and its
/// ≈ 30 MB of data into the statically linked binary, which every `linkd open` then starts and the idle daemon
/// holds. (`packaging/test-deb` checks the installed binary for ICU's data as well.)
struct ProductImportsTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")
    static let productModules = [
        "LinkdRouting", "LinkdFormats", "LinkdConfig", "LinkdSession", "LinkdSystem", "LinkdDesktop", "LinkdDaemon",
        "LinkdCLI", "linkd",
    ]
    static let refused: Set<String> = [
        "Foundation", "FoundationNetworking", "FoundationInternationalization", "FoundationXML", "_FoundationICU",
    ]

    /// `import X` lines of a file, attributes such as `@preconcurrency` and access levels left out.
    static func importedModules(of text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ").filter {
                !$0.hasPrefix("@") && !["public", "internal"].contains($0)
            }
            guard words.count >= 2, words[0] == "import" else { return nil }
            return String(words[words.count - 1].split(separator: ".")[0])
        }
    }

    @Test func readsTheModuleOfEachImportLine() {
        let text = "import Glibc\n@preconcurrency import Foundation\npublic import FoundationEssentials\n// import X"
        #expect(Self.importedModules(of: text) == ["Glibc", "Foundation", "FoundationEssentials"])
    }

    @Test(arguments: productModules)
    func importsNoModuleThatBringsICU(_ module: String) throws {
        let folder = Self.sources.appendingPathComponent(module)
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let offending = Self.importedModules(of: text).filter(Self.refused.contains)
            #expect(offending.isEmpty, "\(module)/\(file) imports \(offending)")
        }
    }
}
