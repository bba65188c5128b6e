import LinkdFormats

/// A host's `assetlinks.json`: the Android apps it lets handle all of its links
/// (`delegate_permission/common.handle_all_urls`). The apps' signing-certificate fingerprints are read but cannot be
/// checked on Linux, where no Android package is installed to compare them with.
package struct AssetLinks: Sendable, Equatable {
    /// The package names with `common.handle_all_urls`, in the file's order.
    package let packages: [String]

    /// The most bytes the file may hold (Android's verifier reads 1 MiB).
    package static let sizeLimit = 1_024 * 1_024

    static let handleAllURLs = "delegate_permission/common.handle_all_urls"

    /// Reads the file's `bytes`: a JSON array of statements; statements about anything else (a web site, another
    /// relation) are left alone.
    ///
    /// - Throws: ``AssociationFileError`` naming the part at fault.
    package init(parsing bytes: [UInt8]) throws(AssociationFileError) {
        let root = try AssociationFileError.json(of: bytes, limit: Self.sizeLimit)
        guard let statements = root.arrayElements else { throw AssociationFileError("$", "expected an array") }
        var packages: [String] = []
        for (index, statement) in statements.enumerated() {
            let path = "$[\(index)]"
            guard statement.objectMembers != nil else { throw AssociationFileError(path, "expected an object") }
            guard let relations = statement["relation"]?.arrayElements else {
                throw AssociationFileError("\(path).relation", "expected an array")
            }
            guard relations.contains(.string(Self.handleAllURLs)) else { continue }
            guard let target = statement["target"], target.objectMembers != nil else {
                throw AssociationFileError("\(path).target", "expected an object")
            }
            guard target["namespace"]?.stringValue == "android_app" else { continue }
            guard let name = target["package_name"]?.stringValue, !name.isEmpty else {
                throw AssociationFileError("\(path).target.package_name", "expected a non-empty string")
            }
            packages.append(name)
        }
        self.packages = packages
    }

    /// Whether the file lets `package` handle every link of the host.
    package func handlesAllLinks(for package: String) -> Bool { packages.contains(package) }
}
