import LinkdFuzzChecks

/// libFuzzer's target `fuzz-apps` (scripts/fuzz), or without libFuzzer a replay of the files given.
@main enum Fuzz {
    static func main() { FuzzTarget.apps.main { FuzzTarget.apps.run($0, $1) } }
}
