import LinkdFuzzChecks

/// libFuzzer's target `fuzz-lines` (scripts/fuzz), or without libFuzzer a replay of the files given.
@main enum Fuzz {
    static func main() { FuzzTarget.lines.main { FuzzTarget.lines.run($0, $1) } }
}
