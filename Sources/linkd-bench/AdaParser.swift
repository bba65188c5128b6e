import Foundation
import Glibc

/// ada (the C++ WHATWG URL parser), loaded from `.build/ada/libada.so` as `scripts/install-ada` builds it, through
/// its C API: `ada_parse`, `ada_is_valid`, `ada_free`.
struct AdaParser {
    private typealias Parse = @convention(c) (UnsafePointer<CChar>?, Int) -> UnsafeMutableRawPointer?
    private typealias IsValid = @convention(c) (UnsafeMutableRawPointer?) -> Bool
    private typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// Where `scripts/install-ada` puts the library (`LINKD_BENCH_ADA` overrides it).
    static var path: String {
        ProcessInfo.processInfo.environment["LINKD_BENCH_ADA"] ?? ".build/ada/libada.so"
    }

    private let parse: Parse
    private let isValid: IsValid
    private let free: Free

    /// ada from ``path``, or `nil` (and why) when it cannot be loaded.
    static func load() -> Result<AdaParser, AdaMissing> {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(AdaMissing(reason: String(cString: dlerror())))
        }
        guard let parse = dlsym(handle, "ada_parse"), let isValid = dlsym(handle, "ada_is_valid"),
            let free = dlsym(handle, "ada_free")
        else { return .failure(AdaMissing(reason: "\(path) lacks ada's C API")) }
        return .success(
            AdaParser(
                parse: unsafeBitCast(parse, to: Parse.self),
                isValid: unsafeBitCast(isValid, to: IsValid.self),
                free: unsafeBitCast(free, to: Free.self)
            )
        )
    }

    /// Parses `link` (its UTF-8 bytes, not NUL-terminated) and frees the result: 1 when ada accepted it, else 0.
    func parse(_ link: UnsafeBufferPointer<CChar>) -> Int {
        let url = parse(link.baseAddress, link.count)
        defer { free(url) }
        return isValid(url) ? 1 : 0
    }
}

/// Why ada was not loaded.
struct AdaMissing: Error {
    let reason: String
}
