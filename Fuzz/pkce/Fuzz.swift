import LinkdFuzzChecks

/// libFuzzer's target `fuzz-pkce` (scripts/fuzz), or without libFuzzer a replay of the files given.
@main enum Fuzz {
    static func main() { FuzzTarget.pkce.main { FuzzTarget.pkce.run($0, $1) } }
}
