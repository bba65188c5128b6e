import Foundation
import Glibc
import LinkdRouting
import Testing

/// Every link linkd accepts, ada (the C++ WHATWG URL parser, built by `scripts/install-ada`) accepts too, with the
/// same `href`: linkd's strict reading refuses more than the standard, but what it accepts it serialises as the
/// standard does. Skipped, saying so, where ada is not built (CI builds it) and under the sanitizers.
@Suite struct AdaDifferentialTests {
    typealias Href = @convention(c) (UnsafePointer<CChar>?, Int, UnsafeMutablePointer<CChar>?, Int) -> Int

    static let library = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/ada/libada.so").path

    /// ada's href function; `nil` where ada is not built, and under the sanitizers (ada is not instrumented, and
    /// the plain run compares the same outputs).
    static let href: Href? = {
        guard ProcessInfo.processInfo.environment["LINKD_SANITIZER"] == nil,
            let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL), let symbol = dlsym(handle, "linkd_ada_href")
        else {
            return nil
        }
        return unsafeBitCast(symbol, to: Href.self)
    }()

    /// ada's `href` for `input`, or `nil` when ada refuses it.
    static func adaHref(_ input: String, _ href: Href) -> String? {
        let bytes = Array(input.utf8).map { CChar(bitPattern: $0) }
        var output = [CChar](repeating: 0, count: bytes.count * 3 + 256)
        let count = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { href(input.baseAddress, input.count, $0.baseAddress, $0.count) }
        }
        guard count >= 0 else { return nil }
        return String(decoding: output[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test(.enabled(if: href != nil, "ada is not built here (scripts/install-ada builds it), or a sanitizer runs"))
    func whatLinkdAcceptsAdaSerialisesTheSame() throws {
        let href = try #require(Self.href)
        var accepted = 0
        var disagreements: [String] = []
        // LINKD_ADA_CORPUS names a folder of more inputs, one a file: a fuzzer's corpus (`.build/fuzz/corpus/link`).
        let folder = ProcessInfo.processInfo.environment["LINKD_ADA_CORPUS"]
        let extra = try folder.map { folder in
            try FileManager.default.contentsOfDirectory(atPath: folder).compactMap { name in
                FileManager.default.contents(atPath: folder + "/" + name).map { String(decoding: $0, as: UTF8.self) }
            }
        }
        for input in ParserShortcutTests.corpus + (extra ?? []) {
            guard let link = try? LinkURL(parsing: input) else { continue }
            accepted += 1
            let ada = Self.adaHref(input, href)
            if ada != link.href {
                disagreements.append(
                    "\(input.debugDescription): linkd \(link.href.debugDescription), ada \(ada.debugDescription)"
                )
            }
        }
        #expect(accepted > 1_000)
        #expect(disagreements.prefix(20) == [], "\(disagreements.count) disagreements")
    }
}
