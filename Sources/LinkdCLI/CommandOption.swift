/// One row of a command's option table: a flag, or an option that takes a value.
struct CommandOption: Sendable, Hashable {
    /// Whether the option stands alone or takes a value.
    enum Kind: Sendable, Hashable {
        /// Present or absent (`--json`); `--json=x` is an unknown option.
        case flag
        /// Takes a value, as the next argument (`--config DIR`) or after `=` (`--config=DIR`).
        case value
    }

    /// The option as typed, with its dashes (`--config`).
    let name: String
    /// Whether it takes a value.
    let kind: Kind

    /// A flag such as `--json`.
    static func flag(_ name: String) -> CommandOption { CommandOption(name: name, kind: .flag) }

    /// An option that takes a value, such as `--config`.
    static func value(_ name: String) -> CommandOption { CommandOption(name: name, kind: .value) }
}
