package import LinkdConfig

/// One association file of one host, and how it is fetched: with the system's trust, or an app's own.
package struct AssociationTarget: Sendable, Equatable {
    package let host: String
    package let file: AssociationFile
    package let trust: AssociationTrust?

    /// The files `apps` need: for each app with a `web` section, each `https` host its links claim (with its port
    /// when it has one), the apple-app-site-association when it names `appleAppId`, the assetlinks.json when it names
    /// `androidPackage`.
    package static func targets(of apps: [AppConfig]) -> [AssociationTarget] {
        var targets: [AssociationTarget] = []
        for app in apps {
            guard let web = app.web else { continue }
            let hosts = app.webHosts
            var files: [AssociationFile] = []
            if web.appleAppID != nil { files.append(.apple) }
            if web.androidPackage != nil { files.append(.android) }
            for host in hosts {
                for file in files {
                    let trust = AssociationTrust(app: app.app, caFile: web.caFile, proxy: web.proxy)
                    let target = AssociationTarget(host: host, file: file, trust: trust)
                    if !targets.contains(target) { targets.append(target) }
                }
            }
        }
        return targets
    }
}
