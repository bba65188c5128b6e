import LinkdConfig
import LinkdDesktop
import LinkdSystem

/// `linkd check`'s look at the apps whose `forward` links start them (`{"forward": {"start": "desktop"}}`): the app's
/// desktop entry must be there, and either D-Bus-activatable or with an `Exec` that can be run; else nothing would
/// start the app, and its links would wait for it in vain.
enum AppStartCheck {
    static func problems(of apps: [AppConfig], environment: [String: String]) -> [ConfigError] {
        apps.flatMap { app in
            app.links.filter { $0.action.settings(as: ForwardSettings.self)?.start == .desktop }.prefix(1).compactMap {
                link in
                guard let problem = problem(of: app.app, environment: environment) else { return nil }
                let locations = JSONLocations(scanning: FileSystem.contents(of: app.file, limit: 1 << 20) ?? [])
                let path = link.path + ".action"
                return ConfigError(file: app.file, position: locations.value(at: path), path: path, problem: problem)
            }
        }
    }

    /// Why `app` cannot be started from its desktop entry; `nil` when it can.
    private static func problem(of app: String, environment: [String: String]) -> String? {
        guard let (path, entry) = DesktopEntryFile.find(app + ".desktop", environment: environment) else {
            return "nothing starts \(app): no desktop entry \(app).desktop in the applications folders"
        }
        if entry.flag("DBusActivatable") { return nil }
        guard let exec = entry["Exec"], let command = try? DesktopExec(parsing: exec, opensURLs: false),
            let program = command.argvStarting().first
        else { return "nothing starts \(app): \(path) has no Exec= that can be run" }
        do throws(ProgramSearch.Failure) {
            _ = try ProgramSearch.installed(environment: environment).resolve(program)
            return nil
        } catch {
            return "nothing starts \(app): \(path): \(error)"
        }
    }
}
