/// The wrappers mail services put around every link of a message, so that a click passes through their scanner
/// first. The wrapped link is in the wrapper's own query: linkd reads it there, and never asks the wrapper.
///
/// Only wrappers whose encoding their makers document are read: a link of any other kind is routed as itself.
public enum LinkWrapper: String, Sendable, CaseIterable {
    /// Microsoft Defender for Office 365 Safe Links, in Outlook:
    /// `https://<region>.safelinks.protection.outlook.com/?url=<link, percent-encoded>&data=…&sdata=…&reserved=0`.
    case outlookSafeLinks = "Outlook Safe Links"
    /// Google's redirector, in Gmail, Google Docs and Google Groups: `https://www.google.com/url?q=<link>&sa=…` (or
    /// `url=<link>`).
    case googleRedirect = "Google's redirector"

    /// The most wrappers read inside one another (a Safe Link around a Google redirect).
    public static let maximumDepth = 3

    /// The wrapper `link` is, or `nil` when it is none.
    public static func of(_ link: LinkURL) -> LinkWrapper? {
        guard link.scheme == "https", link.port == nil, case .domain(let host)? = link.host else { return nil }
        if host.hasSuffix(".safelinks.protection.outlook.com"), link.pathname == "/" { return .outlookSafeLinks }
        if host == "www.google.com" || host == "google.com", link.pathname == "/url" { return .googleRedirect }
        return nil
    }

    /// The link inside `link`, read out of as many wrappers as there are (up to ``maximumDepth``) and parsed as any
    /// link is; `nil` when `link` is no wrapper, or the wrapper holds nothing linkd reads as a link.
    public static func unwrap(_ link: LinkURL) -> LinkURL? {
        var current = link
        var depth = 0
        while depth < maximumDepth, let wrapper = of(current), let inner = wrapper.inner(of: current) {
            current = inner
            depth += 1
        }
        return depth > 0 ? current : nil
    }

    /// The query parameters that carry the wrapped link, in the order they are looked for.
    private var parameterNames: [String] {
        switch self {
        case .outlookSafeLinks: ["url"]
        case .googleRedirect: ["q", "url"]
        }
    }

    /// The wrapped link, when `link`'s query carries one that parses.
    private func inner(of link: LinkURL) -> LinkURL? {
        guard let parameters = try? link.parameters() else { return nil }
        for name in parameterNames {
            guard parameters.part(of: name) == .query, let value = parameters[name], !value.isEmpty else { continue }
            return try? LinkURL(parsing: value)
        }
        return nil
    }
}
