package import LinkdFormats

/// `{"exec": [program, argument…]}`: the argv, whose first word is the program's absolute path as
/// ``ProgramSearch`` found it when the configuration was read, so that exactly that file runs (or, when it was not
/// found, the name as written, which is never run).
package struct ExecSettings: ActionSettings {
    package static let keyword = "exec"
    package static let example = #"{"exec": [argv…]}"#
    package let argv: [String]

    package init(argv: [String]) {
        self.argv = argv
    }

    package static func decode(_ value: JSONValue?, at path: String, with decoder: inout AppConfigDecoder) -> Self? {
        decoder.programArgv(value, at: path).map(ExecSettings.init)
    }

    package var json: JSONValue { .object([("exec", .array(argv.map { .string($0) }))]) }
    package var summary: String { "exec " + ShellWords.display(argv) }
}
