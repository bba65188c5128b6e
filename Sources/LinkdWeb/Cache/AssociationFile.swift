/// The two association files a site publishes for its apps.
package enum AssociationFile: String, Sendable, CaseIterable {
    /// `/.well-known/apple-app-site-association`: Apple app ids and the links each may open.
    case apple = "apple-app-site-association"
    /// `/.well-known/assetlinks.json`: the Android packages that may open all the site's links.
    case android = "assetlinks.json"

    /// Its path on the host.
    package var path: String { "/.well-known/" + rawValue }

    /// Where a site may serve it, in the order they are tried: Apple's devices read `/apple-app-site-association`, at
    /// the root, when `/.well-known/` has none (large sites still serve it there alone).
    package var paths: [String] {
        switch self {
        case .apple: [path, "/" + rawValue]
        case .android: [path]
        }
    }

    /// The most bytes it may hold: 128 KiB (Apple), 1 MiB (Android's verifier).
    package var sizeLimit: Int {
        switch self {
        case .apple: AppSiteAssociation.sizeLimit
        case .android: AssetLinks.sizeLimit
        }
    }

    /// Why `bytes` are no file of this kind (`isIncluded`: a file an assetlinks.json includes); `nil` when they read.
    package func problem(in bytes: [UInt8], isIncluded: Bool = false) -> AssociationFileError? {
        do throws(AssociationFileError) {
            switch self {
            case .apple: _ = try AppSiteAssociation(parsing: bytes)
            case .android: _ = try AssetLinks(parsing: bytes, isIncluded: isIncluded)
            }
            return nil
        } catch {
            return error
        }
    }
}
