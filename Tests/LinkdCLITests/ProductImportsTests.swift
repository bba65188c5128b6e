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
        "LinkdCLI", "LinkdWeb", "linkd",
    ]
    static let refused: Set<String> = [
        "Foundation", "FoundationNetworking", "FoundationInternationalization", "FoundationXML", "_FoundationICU",
    ]

    static let accessLevels: Set<Substring> = ["public", "package", "internal", "fileprivate", "private"]
    static let declarationKinds: Set<Substring> = [
        "struct", "class", "enum", "protocol", "typealias", "func", "var", "let", "actor",
    ]

    /// The module of each `import` line of a file: attributes such as `@preconcurrency`, access levels, a kind
    /// (`import struct M.T`) and a trailing comment left out.
    static func importedModules(of text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let words = code.split(separator: " ").filter { !$0.hasPrefix("@") && !accessLevels.contains($0) }
            guard words.first == "import" else { return nil }
            guard let path = words.dropFirst().first(where: { !declarationKinds.contains($0) }) else { return nil }
            return String(path.split(separator: ".")[0])
        }
    }

    @Test func readsTheModuleOfEachImportLine() {
        let text = """
            import Glibc
            @preconcurrency import Foundation
            public import FoundationEssentials
            package import FoundationNetworking
            private import struct FoundationXML.XMLParser
            import Synchronization // for Mutex
            // import X
            """
        #expect(
            Self.importedModules(of: text) == [
                "Glibc", "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML",
                "Synchronization",
            ]
        )
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
