import Foundation

/// What a JPEG's frame header says about decoding it, read from the file's first bytes before any pixel is.
///
/// A progressive JPEG cannot be decoded in strips: libjpeg keeps every DCT coefficient of the whole image in
/// memory (two bytes per sample) until the last scan, whatever size it is shrunk to. Four 860 KB progressive
/// 100-megapixel files took the server from 31 to 693 MB. Baseline JPEGs shrink while decoding and stay small.
struct JPEGFrame: Sendable, Equatable {
    let width: Int
    let height: Int
    let isProgressive: Bool
    /// Samples per pixel over all components, in units of 1/64 (4:2:0 colour is 96: 1 + ¼ + ¼).
    let samplesPerPixelSixtyFourths: Int

    /// The memory the coefficient buffer of a progressive decode needs; zero for a baseline JPEG.
    var progressiveBufferBytes: Int {
        guard isProgressive else { return 0 }
        return width * height * samplesPerPixelSixtyFourths / 64 * 2
    }

    /// The frame header of the JPEG at `url`, or nil when none is found in its first 256 KB.
    static func read(at url: URL) -> JPEGFrame? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 256 * 1024) else { return nil }
        return parse(Array(head))
    }

    /// Walks the marker segments after SOI up to the first start-of-frame (SOF0–SOF15 but DHT, JPG and DAC).
    static func parse(_ bytes: [UInt8]) -> JPEGFrame? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF {  // fill byte
                index += 1
                continue
            }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            let segment = index + 4
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard length >= 8, segment + 6 <= bytes.count else { return nil }
                let height = Int(bytes[segment + 1]) << 8 | Int(bytes[segment + 2])
                let width = Int(bytes[segment + 3]) << 8 | Int(bytes[segment + 4])
                let components = Int(bytes[segment + 5])
                guard components > 0, segment + 6 + components * 3 <= bytes.count else { return nil }
                let factors = (0..<components).map { component -> (Int, Int) in
                    let sampling = bytes[segment + 6 + component * 3 + 1]
                    return (max(1, Int(sampling >> 4)), max(1, Int(sampling & 0x0F)))
                }
                let maxH = factors.map(\.0).max() ?? 1
                let maxV = factors.map(\.1).max() ?? 1
                let samples = factors.reduce(0) { $0 + 64 * $1.0 * $1.1 / (maxH * maxV) }
                // SOF2, 6, 10 and 14 are the progressive ones.
                let progressive = [0xC2, 0xC6, 0xCA, 0xCE].contains(marker)
                return JPEGFrame(
                    width: width, height: height, isProgressive: progressive, samplesPerPixelSixtyFourths: samples)
            }
            if marker == 0xDA || marker == 0xD9 || length < 2 { return nil }  // scan data or end before any frame
            index = segment + length - 2
        }
        return nil
    }
}
