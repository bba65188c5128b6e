import FoundationEssentials
import LinkdSystem

/// The person's web browser, for a sign-in page: each command of `$BROWSER` (commands separated by `:`, `%s` in a
/// command standing for the address, which otherwise goes last) that can be found, else `xdg-open`.
struct Browser {
    var environment: [String: String]

    /// The commands to try for `url`, in order.
    func commands(for url: String) -> [[String]] {
        let named = (environment["BROWSER"] ?? "").split(separator: ":").compactMap { command -> [String]? in
            let words = command.split(separator: " ").map(String.init)
            guard !words.isEmpty else { return nil }
            return words.contains { $0.contains("%s") }
                ? words.map { $0.replacing("%s", with: url) } : words + [url]
        }
        return named + [["xdg-open", url]]
    }

    /// Starts the first command of ``commands(for:)`` that can be found, in a session of its own (Ctrl-C on this
    /// terminal leaves the browser alone), and does not wait for it.
    ///
    /// - Returns: the program started, `nil` when none could be.
    func open(_ url: String) -> String? {
        for command in commands(for: url) where Askpass.canRun(command[0], environment: environment) {
            var browser = Subprocess(command, environment: environment)
            browser.startsNewSession = true
            guard let running = try? browser.spawn() else { continue }
            running.exitDescriptor.close()
            return command[0]
        }
        return nil
    }
}
