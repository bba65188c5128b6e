import LinkdFuzzChecks

/// libFuzzer's target `fuzz-wire` (scripts/fuzz), or without libFuzzer a replay of the files given.
@main enum Fuzz {
    static func main() { FuzzTarget.wire.main { FuzzTarget.wire.run($0, $1) } }
}
