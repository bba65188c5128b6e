import Dispatch
import Glibc

/// SIGTERM and SIGINT (stop) and SIGHUP (reload) as async streams (DispatchSource signal sources on a private
/// queue), for the life of the process.
package struct SignalWatch {
    /// SIGTERM and SIGINT.
    package let stops: AsyncStream<Int32>
    /// SIGHUP: read the configuration again (the unit's `ExecReload=`).
    package let reloads: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    /// Starts watching the three signals.
    package init() {
        let (stops, stop) = AsyncStream.makeStream(of: Int32.self)
        let (reloads, reload) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingNewest(1))
        let queue = DispatchQueue(label: "linkd.signals")
        sources = [(SIGTERM, stop), (SIGINT, stop), (SIGHUP, reload)].map { number, continuation in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        self.stops = stops
        self.reloads = reloads
    }
}
