import Foundation

extension ProcessInfo {
    /// This process's environment with `changes` made: each key is set to its value, or removed where it is `nil`.
    func environment(changing changes: [String: String?]) -> [String: String] {
        var environment = self.environment
        for (key, value) in changes { environment[key] = value }
        return environment
    }
}
