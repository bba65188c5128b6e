import FoundationEssentials
import LinkdConfig
import LinkdDesktop
import LinkdSession
import LinkdSystem
import LinkdWeb
import LinkdWire

/// `linkd register --web` and `linkd unregister --web`: web links' registration, which `RegisterCommand` and
/// `UnregisterCommand` hand over to.
enum WebRegistrationCommand {
    /// Takes web links: finds the browser they open in now, makes linkd their handler, and fetches the association
    /// files of the apps' web hosts so that the first click finds them; prints the browser and each host's
    /// verification.
    static func register(executable: String, _ console: Console) async throws(CommandFailure) -> ExitCode {
        let environment = ProcessInfo.processInfo.environment
        let registrar = Registrar(environment: environment, actions: .linkd)
        let browser: WebBrowser?
        do throws(Registrar.Problem) {
            browser = try browserToRecord(registrar, environment)
            if let browser {
                console.write(try registrar.registerWeb(executable: executable, browser: browser.id).summary + "\n")
                if let list = WebBrowser.listGivingDefault(environment: environment), list != registrar.mimeApps {
                    // A desktop's own list (gnome-mimeapps.list, say) comes before the one linkd writes.
                    console.writeError(
                        "warning: \(list) gives https links to "
                            + "\(WebBrowser.listedDefault(environment: environment) ?? "another handler") and comes "
                            + "before \(registrar.mimeApps): remove its x-scheme-handler/http and https lines, or web "
                            + "links keep opening there\n"
                    )
                }
            }
        } catch {
            throw .failed("\(error)", exitCode: error.isPermissionDenied ? .permission : .invalid)
        }
        guard browser != nil else {
            throw .failed(
                "no web browser is installed to pass web links on to; nothing changed. Install one (such as "
                    + "firefox-esr or chromium), then run 'linkd register --web' again",
                exitCode: .unavailable
            )
        }
        let apps = registrar.config.load().apps
        let cache = AssociationCache(folder: XDGDirectories(environment: environment).cacheHome + "/linkd/associations")
        let now = Double(WallClock.seconds)
        await WebHostStatus.refresh(apps, cache: cache, now: now)
        let hosts = WebHostStatus.all(of: apps, cache: cache, now: now)
        if hosts.isEmpty { console.write("no app in apps.d has a web section: every web link opens in the browser\n") }
        for host in hosts { console.write("  " + host.line + "\n") }
        if let desktop = otherSwitch(environment) { console.write(desktop + "\n") }
        return .success
    }

    /// Puts web links back: the browser linkd replaced is their default again, as it was.
    static func unregister(_ console: Console) throws(CommandFailure) -> ExitCode {
        let registrar = Registrar(actions: .linkd)
        do throws(Registrar.Problem) {
            console.write(try registrar.unregisterWeb().summary + "\n")
            return .success
        } catch {
            throw .failed("\(error)", exitCode: error.isPermissionDenied ? .permission : .invalid)
        }
    }

    /// The browser to pass web links on to: when linkd has them, the one it recorded (or, gone, another); when a
    /// browser took them back or linkd never had them, the one that has them now.
    private static func browserToRecord(
        _ registrar: Registrar,
        _ environment: [String: String]
    ) throws(Registrar.Problem) -> WebBrowser? {
        if let recorded = try registrar.readWebRegistration(),
            WebBrowser.listedDefault(environment: environment) == WebDesktopEntry.id
        {
            return WebBrowser.choose(recorded: recorded.browser, environment: environment)
        }
        return WebBrowser.current(environment: environment)
    }

    /// What else to set on a desktop whose own browser setting can pass mimeapps.list by.
    static func otherSwitch(_ environment: [String: String]) -> String? {
        let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.uppercased() }
        if desktops.contains("KDE") {
            return "on KDE Plasma, also choose 'linkd (web links)' as the web browser in System Settings → "
                + "Default Applications"
        }
        if desktops.contains("XFCE") {
            return "on Xfce, also choose 'linkd (web links)' as the web browser in Settings → Default Applications"
        }
        return nil
    }
}
