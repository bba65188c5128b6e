import Foundation
import LinkdTestSupport
import Testing

/// The README and the guides: the README stays a front door, every guide is installed, and no document points at a
/// file that is not there or at anything outside the repository.
@Suite struct DocumentationTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let guides = ["app-developers", "security", "performance", "contributing"]
    static let documents = ["README.md"] + guides.map { "share/doc/linkd/\($0).md" }

    private func text(_ path: String) throws -> String {
        try String(contentsOf: Self.repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// The example app's apps.d file, as the package ships it.
    static func exampleApp() throws -> String {
        try String(
            contentsOf: repository.appendingPathComponent("share/examples/apps.d/com.example.Notes.json"),
            encoding: .utf8
        )
    }

    @Test func theReadmeFitsInTwoHundredFiftyLinesAndLinksEveryGuide() throws {
        let readme = try text("README.md")
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 250)
        for guide in Self.guides { #expect(readme.contains("](share/doc/linkd/\(guide).md)"), "\(guide)") }
    }

    @Test func everyGuideIsInstalledByThePackageAndByPackagingInstall() throws {
        let install = try text("packaging/install")
        let docs = try text("packaging/debian/linkd.docs")
        for guide in Self.guides {
            #expect(install.contains("share/doc/linkd/\(guide).md"), "packaging/install: \(guide)")
            #expect(docs.contains("stage/doc/\(guide).md"), "linkd.docs: \(guide)")
        }
    }

    @Test(arguments: documents)
    func everyRelativeLinkResolvesInsideTheRepository(_ document: String) throws {
        let folder = Self.repository.appendingPathComponent(document).deletingLastPathComponent()
        for match in try text(document).matches(of: /\]\(([^)#\s]+)(#[^)]*)?\)/) {
            let target = String(match.output.1)
            guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
            let resolved = folder.appendingPathComponent(target).standardizedFileURL.path
            #expect(resolved.hasPrefix(Self.repository.standardizedFileURL.path + "/"), "\(document): \(target)")
            #expect(FileManager.default.fileExists(atPath: resolved), "\(document): \(target)")
        }
    }

    @Test(arguments: documents)
    func everyFileADocumentNamesExists(_ document: String) throws {
        // A path of the tree, not the end of an installed one (`/usr/share/…`).
        let names = try text(document).matches(
            of: /(?:^|[^\/\w.~-])((?:Sources|Tests|packaging|scripts|share|Fuzz)\/[A-Za-z0-9_.\/+-]+)/
                .anchorsMatchLineEndings()
        )
        for match in names {
            var path = String(match.output.1)
            while path.hasSuffix(".") || path.hasSuffix("/") { path.removeLast() }
            #expect(
                FileManager.default.fileExists(atPath: Self.repository.appendingPathComponent(path).path),
                "\(document): \(path)"
            )
        }
    }

    /// Every block that shows a command (a `$ ` line) is one the example tests run: ` ```sh ` with `linkd parse` or
    /// `linkd route` (``DocumentationExampleTests``), or ` ```console KIND ` for a kind a suite runs (`desktop` and
    /// `check`: ``DocumentationDesktopExampleTests``; `backend`: ``DocumentationBackendExampleTests``; `web`:
    /// ``DocumentationWebExampleTests``). An example shown any other way would not be checked.
    @Test(arguments: documents)
    func everyCommandShownIsInABlockATestRuns(_ document: String) throws {
        var info: String?
        for line in try text(document).split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") {
                info = info == nil ? String(trimmed.dropFirst(3)) : nil
                continue
            }
            guard let info, trimmed.hasPrefix("$ ") else { continue }
            let words = info.split(separator: " ")
            let isRun =
                info == "sh"
                ? trimmed.hasPrefix("$ linkd parse ") || trimmed.hasPrefix("$ linkd route ")
                : words.first == "console" && ["desktop", "check", "backend", "web"].contains(words.dropFirst().first)
            #expect(isRun, "\(document): \(trimmed) (in a ```\(info) block)")
        }
    }

    @Test func theGuidesExampleAppIsTheShippedFile() throws {
        let guide = try text("share/doc/linkd/app-developers.md")
        let shown = guide.matches(of: /```json\n([\s\S]*?)```/).map { String($0.output.1) }.first
        #expect(shown == (try Self.exampleApp()))
    }

    @Test(arguments: documents)
    func noDocumentSendsItsReaderOutsideTheRepository(_ document: String) throws {
        let content = try text(document)
        for outside in ["../shared", "DESIGN.md", "STYLE.md"] {
            #expect(!content.contains(outside), "\(document): \(outside)")
        }
    }
}

/// The examples of the documents that need no daemon, desktop or network (`linkd parse` and `linkd route`): each
/// runs, and prints exactly what the document shows after it.
@Suite(.ownThread) struct DocumentationExampleTests {
    /// Each `$ linkd parse|route …` line of a `sh` block, its arguments, and the lines shown after it.
    static func examples(in document: String) throws -> [(arguments: [String], output: String)] {
        let text = try String(
            contentsOf: DocumentationTests.repository.appendingPathComponent(document),
            encoding: .utf8
        )
        var found: [(arguments: [String], output: String)] = []
        var inBlock = false
        var current: (arguments: [String], lines: [String])?
        func finish() {
            if let done = current {
                var lines = done.lines
                while lines.last?.isEmpty == true { lines.removeLast() }
                found.append((done.arguments, lines.map { $0 + "\n" }.joined()))
            }
            current = nil
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                finish()
                inBlock = !inBlock && line == "```sh"
                continue
            }
            guard inBlock else { continue }
            if line.hasPrefix("$ ") {
                finish()
                let words = words(of: String(line.dropFirst(2)))
                if words.count > 1, words[0] == "linkd", words[1] == "parse" || words[1] == "route" {
                    current = (Array(words.dropFirst()), [])
                }
            } else if current != nil {
                current?.lines.append(line)
            }
        }
        return found
    }

    /// The words of a command line as a shell splits it, for the quoting the documents use: single quotes.
    static func words(of line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quoted = false
        var started = false
        for character in line {
            if character == "'" {
                quoted.toggle()
                started = true
            } else if character == " " && !quoted {
                if started { words.append(word) }
                word = ""
                started = false
            } else {
                word.append(character)
                started = true
            }
        }
        if started { words.append(word) }
        return words
    }

    @Test func everyParseAndRouteExampleRunsAndPrintsWhatTheGuideShows() throws {
        var ran = 0
        for document in DocumentationTests.documents {
            for example in try Self.examples(in: document) {
                // A folder of the tree, as the guide's reader runs it from the repository's root.
                let arguments = example.arguments.map {
                    $0.hasPrefix("share/") ? DocumentationTests.repository.appendingPathComponent($0).path : $0
                }
                let result = try LinkdProcess.run(arguments)
                #expect(
                    result.stdout == example.output,
                    "\(document): linkd \(example.arguments.joined(separator: " "))"
                )
                ran += 1
            }
        }
        #expect(ran >= 5, "the guide shows at least five such examples")
    }
}

/// The Swift examples of the app developers' guide and the README are the code the routing and LinkdTesting example
/// tests compile and run, and the LinkdClient lines compiled in `ClientReadmeExample`: every line of each (without its
/// trailing comment) is in one of them.
@Suite struct DocumentationSwiftExampleTests {
    @Test func everySwiftLineOfTheGuideIsInACompiledTest() throws {
        let repository = DocumentationTests.repository
        let guide = try String(
            contentsOf: repository.appendingPathComponent("share/doc/linkd/app-developers.md"),
            encoding: .utf8
        )
        let readme = try String(contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
        let tests = try [
            "Tests/LinkdRoutingTests/ReadmeExampleTests.swift", "Tests/LinkdTestingTests/ReadmeExampleTests.swift",
            "Tests/LinkdEndToEndTests/ClientReadmeExample.swift",
        ].map { try String(contentsOf: repository.appendingPathComponent($0), encoding: .utf8) }.joined()
        let blocks = (guide + readme).matches(of: /```swift\n([\s\S]*?)```/).map { String($0.output.1) }
        #expect(blocks.count == 4)
        for line in blocks.flatMap({ $0.split(separator: "\n") }) {
            let code = (line.firstRange(of: " // ").map { line[..<$0.lowerBound] } ?? line[...])
                .trimmingCharacters(in: .whitespaces)
            guard !code.isEmpty else { continue }
            #expect(tests.contains(code), "not in a test: \(code)")
        }
    }
}
