extension ActionKinds {
    /// The actions of linkd's daemon, in the order a configuration problem lists them: what an apps.d link may name.
    package static let linkd = ActionKinds([
        ResetSettings.self, ForwardSettings.self, ExecSettings.self, DBusSettings.self, SignInSettings.self,
    ])
}

extension LinkConfig {
    /// Whether the link's action is a password reset (`linkd reset request` asks for one).
    package var resetsPassword: Bool { action.settings(as: ResetSettings.self) != nil }

    /// Whether the link's action signs in (`linkd login` starts one).
    package var signsIn: Bool { action.settings(as: SignInSettings.self) != nil }
}
