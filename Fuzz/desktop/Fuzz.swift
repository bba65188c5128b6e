import LinkdFuzzChecks

/// libFuzzer's target `fuzz-desktop` (scripts/fuzz), or without libFuzzer a replay of the files given.
@main enum Fuzz {
    static func main() { FuzzTarget.desktop.main { FuzzTarget.desktop.run($0, $1) } }
}
