import Dispatch
import Glibc

/// SIGTERM and SIGINT as an async stream (DispatchSource signal sources on a private queue), for the life of the
/// process.
struct SignalWatch {
    let stream: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let queue = DispatchQueue(label: "linkd.signals")
        sources = [SIGTERM, SIGINT].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        self.stream = stream
    }
}
