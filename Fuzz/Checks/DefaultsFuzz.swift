import LinkdDesktop

extension FuzzTarget {
    /// The reader of the replaced defaults (`/var/lib/linkd/replaced-defaults.json`, which `register --system`
    /// reads as root) on any bytes: they are read, or refused with a problem that names the file and no more; what
    /// is read is written as one line, which reads back as the same defaults and, when its schemes are ASCII (as
    /// every scheme linkd remembers is), is written again as it was.
    ///
    /// Only ASCII, since Swift 6.3.1 orders some other strings inconsistently: `"é1"` and `"e\u{301}"` are neither
    /// less nor greater than each other, and not equal, so that schemes sorted for writing come out in an order that
    /// depends on the order of the dictionary they came from (`Fuzz/found/defaults/non-ascii-schemes-unordered`).
    package static let defaults = FuzzTarget("defaults") { bytes in
        let path = "/var/lib/linkd/replaced-defaults.json"
        let defaults: ReplacedDefaults
        do throws(Registrar.Problem) {
            defaults = try ReplacedDefaults(parsing: Array(bytes), path: path)
        } catch {
            require(
                error.description == "cannot read '\(path)': it is not linkd's list of replaced defaults",
                "a refusal that does not name the file, or says more"
            )
            require(!error.isPermissionDenied, "a refusal of the contents as a permission problem")
            return
        }
        let text = defaults.text
        require(
            text.utf8.last == UInt8(ascii: "\n") && text.utf8.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") },
            "replaced defaults written on more than one line"
        )
        let reread = try? ReplacedDefaults(parsing: Array(text.utf8), path: path)
        require(reread == defaults, "replaced defaults written read back as others")
        if defaults.lines.keys.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) {
            require(reread?.text == text, "replaced defaults read back are written otherwise")
        }
    }
}
