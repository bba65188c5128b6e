import LinkdDesktop

/// `linkd unregister SCHEME...`.
struct UnregisterCommand: Command {
    static let name = "unregister"
    static let abstract = "Stop linkd opening links of these schemes."
    static let usage = "linkd unregister <scheme> ..."
    static let help = """
        OVERVIEW: \(abstract)

        USAGE: \(usage)

        Removes linkd's defaults for the schemes from mimeapps.list (every other entry stays), their MimeType
        entries from linkd.desktop, and the desktop file itself when no scheme is left, so GIO no longer falls
        back to linkd.

        """

    static let options: [CommandOption] = []

    var schemes: [String]

    init(parsing arguments: [[UInt8]]) throws(CLIError) {
        let scanner = try Self.scan(arguments)
        guard !scanner.positionals.isEmpty else { throw .missingArgument("<scheme>", command: Self.name) }
        schemes = try scanner.schemes(command: Self.name)
    }

    func run(_ console: Console) async throws(CommandFailure) -> ExitCode {
        do {
            let changed = try Registrar().unregister(schemes)
            let names = schemes.map { $0.lowercased() }.joined(separator: ", ")
            console.write(changed ? "unregistered: \(names)\n" : "not registered: \(names)\n")
            return .success
        } catch {
            throw .failed("\(error)", exitCode: .permission)
        }
    }
}
