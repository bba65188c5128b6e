import LinkdFuzzChecks

/// libFuzzer's target `fuzz-appservices-session` (scripts/fuzz), or without libFuzzer a replay of the files given.
@main enum Fuzz {
    static func main() { FuzzTarget.appServicesSession.main { FuzzTarget.appServicesSession.run($0, $1) } }
}
