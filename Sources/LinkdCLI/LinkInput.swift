/// The links a command was given: its URL arguments in order, with `-` standing for standard input's lines.
///
/// Lines are split on LF only (a CR stays in the link and is refused there). A line longer than
/// ``LinkURL/maximumLength`` is cut short while it is read, so a huge line costs no more memory than the limit;
/// the parser still refuses it as `too_long`.
struct LinkInput: Sequence, IteratorProtocol {
    private var arguments: ArraySlice<[UInt8]>
    private let console: Console
    private var readingInput = false
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var inputEnded = false

    init(arguments: [[UInt8]], console: Console) {
        self.arguments = arguments[...]
        self.console = console
    }

    mutating func next() -> [UInt8]? {
        while true {
            if readingInput {
                if let line = nextLine() { return line }
                readingInput = false
            }
            guard let argument = arguments.popFirst() else { return nil }
            if argument == [UInt8(ascii: "-")] {
                readingInput = true
            } else {
                return argument
            }
        }
    }

    /// The next link when it is there without reading more of standard input (an argument, or a whole line read
    /// already); `nil` when it is not, which is not the end of the links.
    mutating func nextWithoutWaiting() -> [UInt8]? {
        if readingInput {
            guard inputEnded || pending[pendingStart...].contains(UInt8(ascii: "\n")) else { return nil }
            return next()
        }
        guard let argument = arguments.first, argument != [UInt8(ascii: "-")] else { return nil }
        return next()
    }

    private mutating func nextLine() -> [UInt8]? {
        var line: [UInt8] = []
        let cap = 16_384 + 1
        while true {
            if let newline = pending[pendingStart...].firstIndex(of: UInt8(ascii: "\n")) {
                append(pending[pendingStart..<newline], to: &line, cap: cap)
                pendingStart = newline + 1
                return line
            }
            append(pending[pendingStart...], to: &line, cap: cap)
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            guard !inputEnded else { return line.isEmpty ? nil : line }
            pending = console.readInput()
            if pending.isEmpty {
                inputEnded = true
                return line.isEmpty ? nil : line
            }
        }
    }

    private func append(_ bytes: ArraySlice<UInt8>, to line: inout [UInt8], cap: Int) {
        line.append(contentsOf: bytes.prefix(Swift.max(0, cap - line.count)))
    }
}
