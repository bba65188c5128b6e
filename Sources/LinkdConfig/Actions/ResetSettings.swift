package import LinkdFormats

/// `"reset"`: the link's format and backend say the rest.
package struct ResetSettings: ActionSettings {
    package static let keyword = "reset"
    package static let example = #""reset""#

    package init() {}

    package static func decode(_ value: JSONValue?, at path: String, with decoder: inout AppConfigDecoder) -> Self? {
        decoder.expectKeywordAlone(keyword, value, at: path) ? ResetSettings() : nil
    }

    /// A reset link needs the `supabase` or `appservices` format and a backend of the same kind.
    package func check(_ link: ActionLinkFacts, at path: String, with decoder: inout AppConfigDecoder) {
        guard let format = link.format, format == .supabase || format == .appservices else {
            decoder.fail("\(path).format", "action 'reset' needs format 'supabase' or 'appservices'")
            return
        }
        guard let backend = link.backend else {
            decoder.fail("\(path).action", "action 'reset' needs a backend (the app's or the link's)")
            return
        }
        if backend.format != format {
            let location = link.hasOwnBackend ? "\(path).backend" : "$.backend"
            decoder.fail(location, "a '\(backend.format.rawValue)' backend cannot reset '\(format.rawValue)' links")
        }
    }

    package var json: JSONValue { .string("reset") }
    package var summary: String { "reset" }
}
