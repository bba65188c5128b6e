import LinkdRouting
import LinkdWeb

extension FuzzTarget {
    /// The readers of association files (apple-app-site-association, assetlinks.json) on any bytes, up to the 128 KiB
    /// a file may hold: a file is read (each part it leaves out named by its JSON path) or refused with the JSON path of
    /// the part at fault, never a crash, and within
    /// the time and memory libFuzzer allows; a file read is read the same way twice, its patterns within the step
    /// limit, and decides every link for every app it names — the first rule that matches deciding, so that a link
    /// an app's file admits is never also one it excludes. An assetlinks.json read keeps only statements with a
    /// well-formed fingerprint and only https includes, at most as many as are followed.
    package static let association = FuzzTarget("association") { bytes in
        let contents = Array(bytes)
        do throws(AssociationFileError) {
            let file = try AppSiteAssociation(parsing: contents)
            require((try? AppSiteAssociation(parsing: contents)) == file, "a file reads as another the second time")
            // What a click may cost is bounded by the file, whatever its substitution variables (libFuzzer's -timeout
            // and -rss_limit_mb, set by scripts/fuzz, catch a reading or a match that takes more time or memory).
            require(file.steps <= AppSiteAssociation.stepLimit, "a file read whose patterns pass the step limit")
            // A part left out is named, and the file keeps at least one entry when it had one to leave out.
            require(
                file.warnings.allSatisfy { $0.path.hasPrefix("$.applinks") && !$0.problem.isEmpty },
                "a part left out without its path or problem"
            )
            require(
                !file.details.isEmpty || !file.warnings.contains { $0.problem.hasSuffix("its entry is left out") },
                "a file read whose every entry was left out"
            )
            let apps = Set(file.details.flatMap(\.appIDs)).sorted().prefix(4)
            for app in apps {
                for link in Self.associationLinks {
                    let decision = file.decision(for: app, link: link)
                    require(file.decision(for: app, link: link) == decision, "a link decided two ways")
                }
            }
        } catch {
            require(error.path.hasPrefix("$") && !error.problem.isEmpty, "a refusal without its part or problem")
        }
        do throws(AssociationFileError) {
            let links = try AssetLinks(parsing: contents)
            require((try? AssetLinks(parsing: contents)) == links, "a statement list reads as another the second time")
            require(links.packages.allSatisfy { !$0.isEmpty }, "an empty package name read")
            // A statement for an app counts only with its certificate; an include is followed over https alone.
            require(
                links.statements.allSatisfy { !$0.fingerprints.isEmpty && $0.fingerprints.allSatisfy(isFingerprint) },
                "a statement read without a well-formed fingerprint"
            )
            require(links.includes.allSatisfy { $0.address.hasPrefix("https://") }, "an include read that is no https")
            require(links.includes.count <= AssetLinks.includeLimit, "more includes read than are followed")
            require(links.warnings.allSatisfy { $0.path.hasPrefix("$[") }, "a part left out without its path")
            // The same file, included, follows none of its includes, and keeps every statement.
            if let included = try? AssetLinks(parsing: contents, isIncluded: true) {
                require(
                    included.includes.isEmpty && included.statements == links.statements,
                    "an include followed twice"
                )
            }
            for package in links.packages.prefix(4) {
                for link in Self.associationLinks {
                    let decision = links.decision(for: package, link: link)
                    require(links.decision(for: package, link: link) == decision, "a link decided two ways")
                    require(decision == .notListed || links.lists(package), "a link opened for a package not listed")
                }
            }
        } catch {
            require(error.path.hasPrefix("$") && !error.problem.isEmpty, "a refusal without its part or problem")
        }
    }

    /// Whether `text` is a fingerprint as assetlinks.json writes one, checked apart from the reader's own test.
    static func isFingerprint(_ text: String) -> Bool {
        let bytes = text.split(separator: ":", omittingEmptySubsequences: false)
        return bytes.count == 32
            && bytes.allSatisfy { $0.count == 2 && $0.allSatisfy { "0123456789ABCDEF".contains($0) } }
    }

    /// Links each file read decides: plain, with a query and a fragment, percent-encoded, and long.
    static let associationLinks: [LinkURL] = [
        "https://x.example/", "https://x.example/help/topic?articleNumber=1234&articleNumber=12#top",
        "https://x.example/caf%C3%A9/menu?q=%20&&=x", "https://x.example/" + String(repeating: "ab/", count: 300),
    ].compactMap { try? LinkURL(parsing: $0) }
}
