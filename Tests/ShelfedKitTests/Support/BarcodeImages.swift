import Foundation

/// EAN-13 barcodes drawn by the tests themselves (GS1's module patterns) into grey PNGs written without any image
/// library, so the Swift suites can exercise zbar and libvips on pictures whose contents they know.
enum BarcodeImages {
    private static let left = [
        "0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011",
    ]
    private static let even = [
        "0100111", "0110011", "0011011", "0100001", "0011101", "0111001", "0000101", "0010001", "0001001", "0010111",
    ]
    private static let right = [
        "1110010", "1100110", "1101100", "1000010", "1011100", "1001110", "1010000", "1000100", "1001000", "1110100",
    ]
    private static let parity = [
        "LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL",
    ]

    /// The 95 modules of the EAN-13 for 13 digits, 1 for a bar.
    static func modules(_ digits: String) -> [Bool] {
        let values = digits.compactMap(\.wholeNumberValue)
        precondition(values.count == 13)
        var pattern = "101"
        for (index, value) in values[1...6].enumerated() {
            pattern += Array(parity[values[0]])[index] == "L" ? left[value] : even[value]
        }
        pattern += "01010"
        for value in values[7...12] { pattern += right[value] }
        pattern += "101"
        return pattern.map { $0 == "1" }
    }

    /// A grey picture `width` × `height` with one barcode per entry of `codes`, side by side, each `modulePixels`
    /// wide per module on a white label; `sideways` stands them on end (the picture turned 90°).
    static func png(_ codes: [String], modulePixels: Int = 4, sideways: Bool = false) -> Data {
        let barHeight = 60 * modulePixels
        let labelWidth = (95 + 24) * modulePixels
        let width = labelWidth * codes.count + 80
        let height = barHeight + 160
        var pixels = [UInt8](repeating: 150, count: width * height)  // a grey cover around white labels
        for (index, code) in codes.enumerated() {
            let x0 = 40 + index * labelWidth
            for y in 60..<(60 + barHeight + 40) {
                for x in x0..<(x0 + labelWidth - 8) { pixels[y * width + x] = 255 }
            }
            for (module, bar) in modules(code).enumerated() where bar {
                let x = x0 + (12 + module) * modulePixels
                for y in 80..<(80 + barHeight) {
                    for dx in 0..<modulePixels { pixels[y * width + x + dx] = 20 }
                }
            }
        }
        guard sideways else { return encode(pixels, width: width, height: height) }
        var turned = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { turned[x * height + (height - 1 - y)] = pixels[y * width + x] }
        }
        return encode(turned, width: height, height: width)
    }

    /// An 8-bit greyscale PNG with stored (uncompressed) deflate blocks.
    static func encode(_ pixels: [UInt8], width: Int, height: Int) -> Data {
        var raw = [UInt8]()
        raw.reserveCapacity((width + 1) * height)
        for row in 0..<height {
            raw.append(0)  // filter: none
            raw.append(contentsOf: pixels[(row * width)..<((row + 1) * width)])
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, raw.count - offset)
            let final: UInt8 = offset + count == raw.count ? 1 : 0
            zlib += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        zlib += bigEndian((b << 16) | a)
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 0, 0, 0, 0])
        png += chunk("IDAT", zlib)
        png += chunk("IEND", [])
        return Data(png)
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
