import Foundation

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "route":
    RouteBenchmark.run()
case "route-profile":
    // Only linkd's parse + route at 1,000 patterns, for a profiler to attribute.
    RouteBenchmark.profile()
case "route-sets-profile":
    // Each realistic link alone, linkd next to ada: where the general path loses.
    RouteBenchmark.profileSets(kind: arguments.dropFirst().first)
case "open":
    do {
        try await OpenBenchmark.run()
    } catch {
        FileHandle.standardError.write(Data("linkd-bench open: \(error)\n".utf8))
        exit(1)
    }
default:
    FileHandle.standardError.write(Data("usage: linkd-bench route | open\n".utf8))
    exit(64)
}
