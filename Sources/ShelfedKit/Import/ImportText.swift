import Foundation

/// Export files arrive in whatever encoding their tracker or spreadsheet wrote: UTF-8 (with or without a byte
/// order mark), Windows-1252 (LibraryThing), or UTF-8 with a few stray Windows-1252 bytes (LibraryThing's own
/// sample has both). `ImportText` copies a file to clean UTF-8 in fixed-size chunks, keeping every valid UTF-8
/// sequence and reading every byte that is not part of one as Windows-1252, so no character is lost or mangled
/// and memory stays flat whatever the file's size.
enum ImportText {
    static let chunkSize = 64 * 1024

    /// Writes `source` as UTF-8 to `destination`; returns how many bytes were read as Windows-1252.
    @discardableResult
    static func normalize(_ source: URL, to destination: URL) throws -> Int {
        guard let input = FileHandle(forReadingAtPath: source.path) else { throw CocoaError(.fileReadNoSuchFile) }
        defer { try? input.close() }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
            let output = FileHandle(forWritingAtPath: destination.path)
        else { throw CocoaError(.fileWriteUnknown) }
        defer { try? output.close() }
        var repair = Repair()
        var isFirstChunk = true
        while true {
            var chunk = try input.read(upToCount: chunkSize) ?? Data()
            if isFirstChunk {
                if chunk.starts(with: [0xEF, 0xBB, 0xBF]) { chunk.removeFirst(3) }
                isFirstChunk = false
            }
            let atEnd = chunk.isEmpty
            let text = repair.feed([UInt8](chunk), atEnd: atEnd)
            if !text.isEmpty { try output.write(contentsOf: text) }
            if atEnd { break }
        }
        return repair.windows1252Bytes
    }

    /// The decoder's state between chunks: the bytes of a sequence cut by the chunk boundary.
    struct Repair {
        private var carry: [UInt8] = []
        private(set) var windows1252Bytes = 0

        mutating func feed(_ bytes: [UInt8], atEnd: Bool) -> [UInt8] {
            let input = carry + bytes
            carry = []
            var output: [UInt8] = []
            output.reserveCapacity(input.count + input.count / 8)
            var index = 0
            while index < input.count {
                let byte = input[index]
                if byte < 0x80 {
                    output.append(byte)
                    index += 1
                    continue
                }
                let length = Self.sequenceLength(lead: byte)
                if length > 0, index + length > input.count, !atEnd,
                    Self.continues(input[index...], upTo: input.count - index)
                {
                    // Possibly a sequence split by the chunk boundary: decide with the next chunk.
                    carry = Array(input[index...])
                    break
                }
                if length > 0, index + length <= input.count, Self.isValidSequence(input[index..<(index + length)]) {
                    output.append(contentsOf: input[index..<(index + length)])
                    index += length
                } else {
                    output.append(contentsOf: Self.windows1252(byte))
                    windows1252Bytes += 1
                    index += 1
                }
            }
            return output
        }

        /// How long a UTF-8 sequence starting with `lead` is; 0 when it cannot start one.
        static func sequenceLength(lead: UInt8) -> Int {
            switch lead {
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 0
            }
        }

        /// Whether the bytes after the lead so far are all continuation bytes.
        static func continues(_ bytes: ArraySlice<UInt8>, upTo count: Int) -> Bool {
            bytes.dropFirst().prefix(count - 1).allSatisfy { $0 & 0xC0 == 0x80 }
        }

        static func isValidSequence(_ bytes: ArraySlice<UInt8>) -> Bool {
            let scalars = bytes.map { $0 }
            var iterator = scalars.makeIterator()
            var decoder = UTF8()
            if case .scalarValue = decoder.decode(&iterator), iterator.next() == nil { return true }
            return false
        }

        /// The UTF-8 of a Windows-1252 byte (0x80–0x9F differ from Latin-1; its five holes become U+FFFD).
        static func windows1252(_ byte: UInt8) -> [UInt8] {
            let scalar: Unicode.Scalar
            if byte >= 0xA0 {
                scalar = Unicode.Scalar(byte)
            } else {
                scalar = Unicode.Scalar(windows1252High[Int(byte) - 0x80]) ?? "\u{FFFD}"
            }
            return Array(String(Character(scalar)).utf8)
        }

        private static let windows1252High: [UInt32] = [
            0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152,
            0xFFFD, 0x017D, 0xFFFD, 0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122,
            0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
        ]
    }
}
