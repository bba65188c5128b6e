import LinkdFuzzChecks

/// libFuzzer's target `fuzz-backends` (scripts/fuzz), or without libFuzzer a replay of the files given.
@main enum Fuzz {
    static func main() { FuzzTarget.backends.main { FuzzTarget.backends.run($0, $1) } }
}
