import Foundation
import LinkdConfig
import Testing

/// The example configuration shipped under `share/examples/apps.d` (installed as an example, never in a live apps.d) loads without a problem once its program is installed.
@Suite struct ShippedConfigTests {
    @Test func theShippedExampleLoadsWhenItsProgramIsInstalled() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("share/examples/apps.d")
        let tree = try TempTree()
        try tree.program("notes")
        let result = tree.loader(folder).load()
        #expect(result.errors == [])
        #expect(result.apps.map(\.app) == ["com.example.Notes"])
        #expect(result.apps.first?.links.count == 6)
    }
}
