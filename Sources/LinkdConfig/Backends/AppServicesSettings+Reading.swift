package import LinkdFormats

/// `{"kind": "appservices", "url": …, "appId": "…", "resetFunction": true, "resetArguments": […]}`.
extension AppServicesSettings: BackendSettingsReading {
    package static let keys: Set<String> = ["appId", "resetFunction", "resetArguments"]

    package static func appendedPart(of pathname: String) -> Substring? {
        let start = pathname.indices.first { pathname[$0...].hasPrefix("/api/client/v2.0") }
        return start.map { pathname[$0...] }
    }

    package static func decode(_ object: JSONValue, at path: String, with decoder: inout AppConfigDecoder) -> Self? {
        let appID = decoder.string(object["appId"], at: "\(path).appId")
        let function = resetFunction(object, at: path, with: &decoder)
        guard let appID, function.isValid else { return nil }
        return AppServicesSettings(appID: appID, resetFunctionArguments: function.arguments)
    }

    /// `"resetFunction": true` (with `"resetArguments": [...]`, any JSON values) for an App Services provider that
    /// runs a reset function: whether both keys are right, and the arguments' text (`[]` when there are none; `nil`
    /// for no function).
    private static func resetFunction(
        _ object: JSONValue,
        at path: String,
        with decoder: inout AppConfigDecoder
    ) -> (isValid: Bool, arguments: String?) {
        var isOn = false
        if let value = object["resetFunction"] {
            guard let flag = decoder.bool(value, at: "\(path).resetFunction") else { return (false, nil) }
            isOn = flag
        }
        switch object["resetArguments"] {
        case nil: return (true, isOn ? "[]" : nil)
        case .array(let values)? where isOn: return (true, JSONValue.array(values).serialized)
        case .array?:
            decoder.fail("\(path).resetArguments", "arguments go to a reset function: set \"resetFunction\": true")
            return (false, nil)
        default:
            decoder.fail("\(path).resetArguments", "expected an array of the reset function's arguments")
            return (false, nil)
        }
    }
}
