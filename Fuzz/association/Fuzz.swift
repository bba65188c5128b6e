import LinkdFuzzChecks

/// libFuzzer's target `fuzz-association` (scripts/fuzz), or without libFuzzer a replay of the files given.
@main enum Fuzz {
    static func main() { FuzzTarget.association.main { FuzzTarget.association.run($0, $1) } }
}
