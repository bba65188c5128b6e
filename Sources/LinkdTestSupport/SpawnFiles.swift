package import Foundation

/// Scratch folders for the standard streams of spawned commands.
package enum SpawnFiles {
    /// Creates a fresh folder `/tmp/linkd-io-<random>`; the caller removes it.
    ///
    /// - Returns: the folder's URL, also when it could not be created (writing into it then fails and says so).
    package static func make() -> URL {
        let folder = URL(fileURLWithPath: "/tmp/linkd-io-\(UUID().uuidString.prefix(12))")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
