import LinkdFuzzChecks

/// libFuzzer's target `fuzz-json` (scripts/fuzz), or without libFuzzer a replay of the files given.
@main enum Fuzz {
    static func main() { FuzzTarget.json.main { FuzzTarget.json.run($0, $1) } }
}
