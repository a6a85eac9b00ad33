import Foundation

/// What a PNG's header chunk says about decoding it, read before any pixel is.
///
/// An interlaced (Adam7) PNG cannot be decoded row by row: libpng hands over the image only after its seventh pass,
/// so libvips holds every pixel of the whole picture, at full size, whatever it is shrunk to. Four 284 KB
/// interlaced 10,000 × 10,000 files took the server from 69 to 738 MB. Non-interlaced PNGs shrink while decoding.
struct PNGHeader: Sendable, Equatable {
    let width: Int
    let height: Int
    let bitDepth: Int
    let colourType: Int
    let isInterlaced: Bool

    /// Bytes per pixel once decoded: palette images become RGB with alpha, 16-bit samples take two bytes.
    var bytesPerPixel: Int {
        let channels =
            switch colourType {
            case 0: 1  // grey
            case 2: 3  // RGB
            case 3: 4  // palette, expanded (with transparency at worst)
            case 4: 2  // grey and alpha
            default: 4  // RGBA, and anything unknown at its largest
            }
        return channels * (bitDepth == 16 ? 2 : 1)
    }

    /// The memory a whole-image decode needs; zero for a PNG that decodes row by row.
    var interlacedBufferBytes: Int {
        guard isInterlaced else { return 0 }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow else { return Int.max / 2 }
        let (bytes, tooMany) = pixels.multipliedReportingOverflow(by: bytesPerPixel)
        return tooMany ? Int.max / 2 : bytes
    }

    /// The header of the PNG at `url`, or nil when its first bytes are not a PNG signature and header chunk.
    static func read(at url: URL) -> PNGHeader? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 33) else { return nil }
        return parse(Array(head))
    }

    /// The signature, then the first chunk, which must be IHDR: length 13, width, height, bit depth, colour type,
    /// compression, filter, interlace method.
    static func parse(_ bytes: [UInt8]) -> PNGHeader? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 29, bytes.starts(with: signature), Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            return nil
        }
        func number(at index: Int) -> Int {
            bytes[index..<index + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        return PNGHeader(
            width: number(at: 16), height: number(at: 20), bitDepth: Int(bytes[24]), colourType: Int(bytes[25]),
            isInterlaced: bytes[28] != 0)
    }
}
