import LinkdFuzzChecks

/// libFuzzer's target `fuzz-link` (scripts/fuzz), or without libFuzzer a replay of the files given.
@main enum Fuzz {
    static func main() { FuzzTarget.link.main { FuzzTarget.link.run($0, $1) } }
}
