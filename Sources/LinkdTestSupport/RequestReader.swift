import Foundation
import LinkdSystem

/// Reads HTTP/1.1 requests off a connection: request line, header fields, and a `Content-Length` body.
struct RequestReader {
    let connection: FileDescriptor
    private var buffer: [UInt8] = []

    init(_ connection: FileDescriptor) { self.connection = connection }

    /// The next request, or nil at end of stream or on a request it cannot read.
    mutating func next() -> ReceivedRequest? {
        guard let head = readHead() else { return nil }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let start = lines[0].split(separator: " ")
        guard start.count == 3 else { return nil }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((String(line[..<colon]), value))
        }
        let length = headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        guard length >= 0, length <= 1 << 20, let body = readBody(length) else { return nil }
        return ReceivedRequest(method: String(start[0]), target: String(start[1]), headers: headers, body: Data(body))
    }

    private mutating func readHead() -> [UInt8]? {
        let terminator: [UInt8] = [13, 10, 13, 10]
        while true {
            if let end = buffer.firstRange(of: terminator) {
                let head = Array(buffer[..<end.lowerBound])
                buffer.removeSubrange(..<end.upperBound)
                return head
            }
            guard buffer.count < 64 * 1024, fill() else { return nil }
        }
    }

    private mutating func readBody(_ length: Int) -> [UInt8]? {
        while buffer.count < length {
            guard fill() else { return nil }
        }
        let body = Array(buffer[..<length])
        buffer.removeSubrange(..<length)
        return body
    }

    private mutating func fill() -> Bool {
        guard case .success(let chunk) = connection.readSome(capacity: 16 * 1024), !chunk.isEmpty else { return false }
        buffer += chunk
        return true
    }
}
