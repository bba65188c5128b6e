import LinkdConfig
import LinkdDaemon
import LinkdRouting

extension FuzzTarget {
    /// An apps.d file of any bytes: every problem names the file, a JSON path and a position in the text (the start
    /// of a value or key, or for text that is not JSON the byte where it breaks); a loaded app has an id, and its
    /// claims build a router.
    package static let apps = FuzzTarget("apps") { bytes in
        let text = Array(bytes)
        var decoder = AppConfigDecoder(file: "fuzz.json", programs: ProgramSearch(directories: []), actions: .linkd)
        let app = decoder.decode(text)
        for error in decoder.errors {
            require(error.file == "fuzz.json" && error.path.hasPrefix("$"), "a problem without its file or path")
            require(!error.problem.isEmpty, "a problem without a description")
            guard let offset = offset(of: error.position, in: text) else {
                fatalError("invariant broken: a problem's position \(error.position) is outside the text")
            }
            if !error.problem.hasPrefix("not valid JSON"), offset < text.count {
                require(![0x20, 0x09, 0x0A, 0x0D].contains(text[offset]), "a problem's position is on white space")
            }
        }
        guard let app else { return }
        require(!app.app.isEmpty && app.file == "fuzz.json", "a loaded app without its id or file")
        for link in app.links {
            require(offset(of: link.position, in: text) != nil, "a link's position is outside the text")
            require((try? RoutePattern(link.match.text)) == link.match, "a claim's pattern reads as another")
        }
        _ = LinkResolver(apps: [app], fallbackToBuiltIns: false)
    }
}
