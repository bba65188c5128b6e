/// The arguments of a command about one account of one app, whose action (if it has one) comes first:
/// `linkd reset request --app NAME --email ADDR …`, `linkd confirm resend --app NAME --email ADDR …`,
/// `linkd reset --code --app NAME --email ADDR`.
struct AccountArguments {
    let app: String
    let email: String
    /// The scanned options after the action, for the command's own flags.
    let scanner: ArgumentScanner

    /// Reads `action` (`nil`: the arguments start with the options), then `--app` and `--email` (a plausible
    /// address) by `C`'s options.
    ///
    /// - Throws: ``CLIError`` for another action, a missing option, a positional argument or an implausible email.
    init<C: Command>(_ arguments: [[UInt8]], action: String?, of command: C.Type) throws(CLIError) {
        if let action {
            guard let given = arguments.first.map({ String(decoding: $0, as: UTF8.self) }) else {
                throw .missingArgument(action, command: C.name)
            }
            guard given == action else { throw .badValue(given, option: "<action>", command: C.name) }
        }
        scanner = try C.scan(Array(arguments.dropFirst(action == nil ? 0 : 1)))
        try scanner.requireNoPositionals(command: C.name)
        guard let app = scanner.values["--app"] else { throw .missingArgument("--app", command: C.name) }
        guard let email = scanner.values["--email"] else { throw .missingArgument("--email", command: C.name) }
        guard Self.isPlausibleEmail(email) else { throw .badValue(email, option: "--email", command: C.name) }
        self.app = app
        self.email = email
    }

    /// One `@` with text on both sides, no white space or controls, at most 254 bytes.
    static func isPlausibleEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return text.utf8.count <= 254 && parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && !$0.properties.isWhitespace }
    }
}
