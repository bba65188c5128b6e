import LinkdFuzzChecks

/// libFuzzer's target `fuzz-formats` (scripts/fuzz), or without libFuzzer a replay of the files given.
@main enum Fuzz {
    static func main() { FuzzTarget.formats.main { FuzzTarget.formats.run($0, $1) } }
}
