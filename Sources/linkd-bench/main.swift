import Foundation

let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "route":
    RouteBenchmark.run()
case "route-profile":
    // Only linkd's parse + route at 1,000 patterns, for a profiler to attribute.
    RouteBenchmark.profile()
default:
    FileHandle.standardError.write(Data("usage: linkd-bench route\n".utf8))
    exit(64)
}
