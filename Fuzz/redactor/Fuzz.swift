import LinkdFuzzChecks

/// libFuzzer's target `fuzz-redactor` (scripts/fuzz), or without libFuzzer a replay of the files given.
@main enum Fuzz {
    static func main() { FuzzTarget.redactor.main { FuzzTarget.redactor.run($0, $1) } }
}
