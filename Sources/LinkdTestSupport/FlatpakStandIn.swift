package import Foundation
import Glibc

/// A Flatpak-style sandbox made with `bwrap`, as Flatpak makes one for an app: a root of its own holding the
/// machine's folders read-only, its own /proc, /dev and /run, the machine's /tmp, and a `/.flatpak-info` naming the
/// app, as Flatpak writes it. linkd tells the app by that file, as xdg-desktop-portal does.
package enum FlatpakStandIn {
    /// Whether one can be made here.
    package static var isAvailable: Bool { access("/usr/bin/bwrap", X_OK) == 0 }

    /// The program that makes it.
    package static let bwrap = "/usr/bin/bwrap"

    /// Writes the `/.flatpak-info` of `appID` into `folder` and returns `bwrap`'s arguments to run `command` in a
    /// sandbox of that app.
    ///
    /// - Throws: when the file cannot be written or `/` cannot be listed.
    package static func arguments(appID: String, in folder: URL, running command: [String]) throws -> [String] {
        let info = folder.appendingPathComponent("flatpak-info-\(UUID().uuidString.prefix(6))")
        try Data("[Application]\nname=\(appID)\nruntime=runtime/org.example.Platform/x86_64/1\n".utf8).write(to: info)
        chmod(info.path, 0o644)
        var arguments = [
            "--die-with-parent", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/run", "--bind", "/tmp", "/tmp",
        ]
        // Every other folder of the machine's root as it is (read-only): the toolchain and the clone may be anywhere.
        for name in try FileManager.default.contentsOfDirectory(atPath: "/").sorted()
        where !["proc", "dev", "sys", "run", "tmp"].contains(name) {
            if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/" + name) {
                arguments += ["--symlink", target, "/" + name]
            } else if (try? FileManager.default.contentsOfDirectory(atPath: "/" + name)) != nil {
                arguments += ["--ro-bind", "/" + name, "/" + name]
            }
        }
        return arguments + ["--ro-bind", info.path, "/.flatpak-info"] + command
    }
}
