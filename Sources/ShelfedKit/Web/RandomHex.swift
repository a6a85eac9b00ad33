/// Secrets (CSRF tokens, invitation codes, API keys) and digests written as lowercase hexadecimal.
///
/// `String(format: "%02x")` per byte, with one `getrandom` call per byte, was a third of the CPU of a request that
/// arrives without a cookie; this takes eight bytes per call and writes the digits directly.
enum RandomHex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `byteCount` bytes from the system's cryptographically secure generator, as `2 × byteCount` hex digits.
    static func secret(byteCount: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        while bytes.count < byteCount {
            var word = generator.next()
            for _ in 0..<min(8, byteCount - bytes.count) {
                bytes.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return hex(bytes)
    }

    /// `bytes` as lowercase hex digits, two per byte.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
