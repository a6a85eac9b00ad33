import Foundation
import NIOCore

/// A streaming `multipart/form-data` parser (RFC 2046 §5.1, RFC 7578): bytes go in chunk by chunk as they arrive,
/// headers, body pieces and part ends come out, and nothing more than one header block or one delimiter's length is
/// held back between chunks.
///
/// Shelfed used MultipartKit 4.7.1's `MultipartParser` here until schemathesis found that one byte of 0x80 or above
/// in a part's header name indexes past the end of its 128-entry table and traps — one request took the server down.
/// That version is the only one available to us, so the parser is our own; every malformed body is an error to
/// throw, never a trap (DESIGN §13).
final class FormDataParser {
    enum Failure: Error, Equatable {
        case malformed(String)
    }

    /// A header block longer than this is no form a browser or phone app sends.
    static let maxHeaderBytes = 16 * 1024

    var onHeader: (_ name: String, _ value: String) -> Void = { _, _ in }
    var onBody: (inout ByteBuffer) -> Void = { _ in }
    var onPartComplete: () -> Void = {}

    /// True once the closing delimiter (`--boundary--`) has been read: the body was not cut short.
    var isFinished: Bool { state == .epilogue }

    private enum State: Equatable {
        case preamble, afterDelimiter, headers, body, epilogue
    }

    /// CRLF, `--`, then the boundary: what ends every part. The body is read as if preceded by a CRLF, so the first
    /// delimiter, which may open the body, looks like every other.
    private let delimiter: [UInt8]
    private var state = State.preamble
    private var pending = ByteBuffer(bytes: [0x0D, 0x0A])

    init(boundary: String) {
        delimiter = Array("\r\n--\(boundary)".utf8)
    }

    func execute(_ chunk: ByteBuffer) throws {
        guard state != .epilogue else { return }
        var chunk = chunk
        pending.writeBuffer(&chunk)
        while try step() {}
        pending.discardReadBytes()
    }

    /// Does what the bytes in hand allow in the current state; false when it needs more.
    private func step() throws -> Bool {
        switch state {
        case .preamble:
            // Whatever comes before the first delimiter is ignored (RFC 2046's preamble).
            guard let index = Self.firstIndex(of: delimiter, in: pending) else {
                pending.moveReaderIndex(forwardBy: max(0, pending.readableBytes - (delimiter.count - 1)))
                return false
            }
            pending.moveReaderIndex(forwardBy: index + delimiter.count)
            state = .afterDelimiter
            return true
        case .afterDelimiter:
            return try readDelimiterEnd()
        case .headers:
            return try readHeaders()
        case .body:
            return readBody()
        case .epilogue:
            pending.moveReaderIndex(forwardBy: pending.readableBytes)
            return false
        }
    }

    /// After a delimiter: `--` closes the body; otherwise optional spaces or tabs and a CRLF open the next part.
    private func readDelimiterEnd() throws -> Bool {
        let bytes = pending.readableBytesView
        guard bytes.count >= 2 else { return false }
        if bytes.starts(with: [0x2D, 0x2D]) {
            pending.moveReaderIndex(forwardBy: pending.readableBytes)
            state = .epilogue
            return false
        }
        guard let lineEnd = Self.firstIndex(of: Self.crlf, in: pending) else {
            guard bytes.count < 256 else { throw Failure.malformed("no line break after a boundary") }
            return false
        }
        guard bytes.prefix(lineEnd).allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else {
            throw Failure.malformed("text after a boundary")
        }
        pending.moveReaderIndex(forwardBy: lineEnd + 2)
        state = .headers
        return true
    }

    /// One part's header lines up to the blank line, each `Name: value` with a token for its name.
    private func readHeaders() throws -> Bool {
        if pending.readableBytesView.starts(with: Self.crlf) {
            pending.moveReaderIndex(forwardBy: 2)
            state = .body
            return true
        }
        guard let end = Self.firstIndex(of: Self.blankLine, in: pending) else {
            guard pending.readableBytes <= Self.maxHeaderBytes else { throw Failure.malformed("headers too long") }
            return false
        }
        guard end <= Self.maxHeaderBytes, let block = pending.readBytes(length: end) else {
            throw Failure.malformed("headers too long")
        }
        pending.moveReaderIndex(forwardBy: Self.blankLine.count)
        for line in Self.lines(of: block) {
            guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex,
                line[..<colon].allSatisfy(Self.isTokenByte)
            else { throw Failure.malformed("a header line that is not Name: value") }
            let value = line[line.index(after: colon)...].drop { $0 == 0x20 || $0 == 0x09 }
            onHeader(String(decoding: line[..<colon], as: UTF8.self), String(decoding: value, as: UTF8.self))
        }
        state = .body
        return true
    }

    /// Hands on everything up to the next delimiter, keeping back only what could be the start of one.
    private func readBody() -> Bool {
        if let index = Self.firstIndex(of: delimiter, in: pending) {
            if index > 0, var piece = pending.readSlice(length: index) { onBody(&piece) }
            pending.moveReaderIndex(forwardBy: delimiter.count)
            onPartComplete()
            state = .afterDelimiter
            return true
        }
        let safe = pending.readableBytes - (delimiter.count - 1)
        if safe > 0, var piece = pending.readSlice(length: safe) { onBody(&piece) }
        return false
    }

    private static let crlf: [UInt8] = [0x0D, 0x0A]
    private static let blankLine: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]

    private static func lines(of block: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = block.startIndex
        var index = block.startIndex
        while index < block.endIndex {
            if block[index] == 0x0D, index + 1 < block.endIndex, block[index + 1] == 0x0A {
                lines.append(block[start..<index])
                index += 2
                start = index
            } else {
                index += 1
            }
        }
        lines.append(block[start..<block.endIndex])
        return lines
    }

    /// RFC 7230's `tchar`: visible ASCII except the separators.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2E, 0x5E, 0x5F, 0x60, 0x7C, 0x7E: true
        default: false
        }
    }

    /// The offset of `needle` in the readable bytes of `buffer`, found with memchr on its first byte.
    static func firstIndex(of needle: [UInt8], in buffer: ByteBuffer) -> Int? {
        buffer.withUnsafeReadableBytes { haystack -> Int? in
            guard let base = haystack.baseAddress, !needle.isEmpty, haystack.count >= needle.count else { return nil }
            let lastStart = haystack.count - needle.count
            var offset = 0
            while offset <= lastStart {
                guard let found = memchr(base + offset, Int32(needle[0]), lastStart - offset + 1) else { return nil }
                let index = base.distance(to: UnsafeRawPointer(found))
                let matches = needle.withUnsafeBytes { memcmp(found, $0.baseAddress!, needle.count) == 0 }
                if matches { return index }
                offset = index + 1
            }
            return nil
        }
    }
}
