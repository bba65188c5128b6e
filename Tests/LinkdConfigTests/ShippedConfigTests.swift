import Foundation
import LinkdConfig
import Testing

/// The example configuration shipped under `share/linkd/apps.d` loads without a problem.
@Suite struct ShippedConfigTests {
    @Test func theShippedExampleLoads() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("share/linkd/apps.d")
        let result = ConfigLoader(directories: [folder]).load()
        #expect(result.errors == [])
        #expect(result.apps.map(\.app) == ["com.example.Notes"])
        #expect(result.apps.first?.links.count == 5)
    }
}
