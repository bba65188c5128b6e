import LinkdFuzzChecks

/// libFuzzer's target `fuzz-spool` (scripts/fuzz), or without libFuzzer a replay of the files given.
@main enum Fuzz {
    static func main() { FuzzTarget.spool.main { FuzzTarget.spool.run($0, $1) } }
}
