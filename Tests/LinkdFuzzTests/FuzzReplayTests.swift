import LinkdFuzzChecks
import Testing

/// Replays the fuzz targets' seed corpora and the inputs of past findings (`Fuzz/found/<target>/`, each the input
/// that broke a check, kept once the bug was fixed) through the same checks libFuzzer runs: a broken check stops the
/// test process, naming the invariant.
@Suite struct FuzzReplayTests {
    static let fuzzFolder =
        String(#filePath.split(separator: "/Tests/").dropLast().joined(separator: "/Tests/")) + "/Fuzz"

    @Test(arguments: FuzzTarget.all.map(\.name))
    func seedCorpusPassesEveryCheck(_ name: String) throws {
        let target = try #require(FuzzTarget.all.first { $0.name == name })
        let inputs = try #require(FuzzTarget.inputs(at: Self.fuzzFolder + "/corpus/" + name))
        #expect(!inputs.isEmpty)
        for input in inputs { target.check(input) }
    }

    @Test(arguments: FuzzTarget.all.map(\.name))
    func pastFindingsPassEveryCheck(_ name: String) throws {
        let target = try #require(FuzzTarget.all.first { $0.name == name })
        for input in FuzzTarget.inputs(at: Self.fuzzFolder + "/found/" + name) ?? [] { target.check(input) }
    }
}
