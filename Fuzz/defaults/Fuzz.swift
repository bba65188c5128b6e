import LinkdFuzzChecks

/// libFuzzer's target `fuzz-defaults` (scripts/fuzz), or without libFuzzer a replay of the files given.
@main enum Fuzz {
    static func main() { FuzzTarget.defaults.main { FuzzTarget.defaults.run($0, $1) } }
}
