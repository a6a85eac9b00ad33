import Hummingbird

/// Writes JSON straight into bytes, for the long lists (every book of a 5,000-book library) where Foundation's
/// `JSONEncoder` — a boxed value tree, then a second pass that sorts every object's keys — cost 90 ms of a 92 ms
/// answer on the benchmark machine (benchmarks/README.md, "JSON API"). Callers write keys in sorted order so the
/// output reads the same as `JSONBody`'s.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the next key or value needs a comma before it.
    private var followsValue = false
    private static let hexDigits = Array("0123456789abcdef".utf8)

    init(reservingCapacity capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        close(UInt8(ascii: "}"))
    }

    mutating func array(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "["))
        body(&self)
        close(UInt8(ascii: "]"))
    }

    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        followsValue = false
    }

    mutating func string(_ text: String?) {
        guard let text else { return null() }
        separate()
        bytes.append(UInt8(ascii: "\""))
        if text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            appendEscaped(text)
        } else {
            bytes.append(contentsOf: text.utf8)
        }
        bytes.append(UInt8(ascii: "\""))
        followsValue = true
    }

    private mutating func appendEscaped(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                // Bytes of multi-byte UTF-8 sequences are all ≥ 0x80, so this only ever meets real control characters.
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(contentsOf: [Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
    }

    mutating func integer(_ number: Int64) {
        separate()
        // Digits by hand: String(number) goes through the generic radix formatter, a tenth of the list's time.
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digitCount = 1
        var rest = magnitude
        while rest >= 10 {
            rest /= 10
            digitCount += 1
        }
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digitCount))
        var index = bytes.count - 1
        repeat {
            bytes[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude > 0
        followsValue = true
    }

    mutating func integer(_ number: Int) {
        integer(Int64(number))
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
        followsValue = true
    }

    /// The written JSON as an API answer, with the headers `JSONBody.response` sends.
    func response(status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        followsValue = false
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        followsValue = true
    }

    private mutating func separate() {
        if followsValue { bytes.append(UInt8(ascii: ",")) }
    }
}
