import Foundation
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

    @Test(arguments: documents)
    func noDocumentSendsItsReaderOutsideTheRepository(_ document: String) throws {
        let content = try text(document)
        for outside in ["../shared", "DESIGN.md", "STYLE.md"] {
            #expect(!content.contains(outside), "\(document): \(outside)")
        }
    }
}
