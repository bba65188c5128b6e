package import LinkdFormats

/// `"forward"`: nothing to set.
package struct ForwardSettings: ActionSettings {
    package static let keyword = "forward"
    package static let example = #""forward""#

    package init() {}

    package static func decode(_ value: JSONValue?, at path: String, with decoder: inout AppConfigDecoder) -> Self? {
        decoder.expectKeywordAlone(keyword, value, at: path) ? ForwardSettings() : nil
    }

    package var json: JSONValue { .string("forward") }
    package var summary: String { "forward" }
}
