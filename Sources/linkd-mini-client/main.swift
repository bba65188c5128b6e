// The baselines of `linkd-bench open`, with nothing but the Swift runtime and Glibc: the least a client can do
// (connect, send one request, read the answer), and with `--exec PROGRAM ARG...` the least a web link's pass to the
// browser can do (exec the browser's command).
import Glibc

let arguments = CommandLine.arguments
if arguments.count > 2 && arguments[1] == "--exec" {
    let argv = arguments.dropFirst(2).map { strdup($0) } + [nil]
    execv(arguments[2], argv)
    exit(127)
}
guard arguments.count == 3 else { exit(64) }
let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
var address = sockaddr_un()
address.sun_family = sa_family_t(AF_UNIX)
withUnsafeMutableBytes(of: &address.sun_path) { buffer in
    for (index, byte) in arguments[1].utf8.enumerated() { buffer[index] = byte }
}
let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
}
guard connected == 0 else { exit(69) }
let request = Array(#"{"op": "open", "url": "\#(arguments[2])", "interactive": false}"#.utf8) + [10]
_ = write(fd, request, request.count)
var byte: UInt8 = 0
while read(fd, &byte, 1) == 1 && byte != 10 {}
close(fd)
