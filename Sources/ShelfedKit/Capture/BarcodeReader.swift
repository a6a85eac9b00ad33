import CImaging
import CMemory
import Foundation
import NIOPosix

/// What the barcodes in one photo said: the ISBNs, in the order found, and any other product codes (a UPC-A on
/// a mass-market paperback, a 13-digit code that is not a book's) so the page can say what it saw.
public struct BarcodeScan: Sendable, Equatable {
    public var isbns: [ISBN] = []
    public var otherCodes: [String] = []
}

/// Finds book barcodes (EAN-13 carrying an ISBN, UPC-A) in a photo with zbar, on the EXIF-upright picture turned
/// to 8-bit grey by libvips. zbar reads both rows and columns, so a barcode lying on its side is found in the
/// first pass; a slanted one is tried again turned 45°, and a small one again at full resolution.
public struct BarcodeReader: Sendable {
    /// Side of the first pass. A 12 MP photo (4000 or 4032 px wide) is decoded straight at half size by the JPEG
    /// decoder's DCT scaling, which a side even a little above half the width (2048) would prevent: decoding all
    /// 12 MP took longer than the scan itself. A barcode a tenth of the photo wide still has ~2 pixels per bar.
    static let quickSide = 2000
    /// The second pass, for a barcode far from the camera: the photo at up to this size.
    static let detailedSide = 4096
    static let maxSymbols = 16
    let processor: ImageProcessor

    public init(processor: ImageProcessor) {
        self.processor = processor
    }

    /// Whether zbar is installed (Debian's libzbar0).
    public static var isAvailable: Bool { shelfed_zbar_available() != 0 }

    public func scan(photoAt url: URL) async throws -> BarcodeScan {
        guard Self.isAvailable else {
            throw AppError.unavailable(
                localized("This server cannot read barcodes: the zbar library is missing (Debian package libzbar0).")
                    + " " + localized("Type the ISBN instead."), retryAfter: nil)
        }
        let maxPixels = processor.maxMegapixels * 1_000_000
        let cost = try await processor.threadPool.runInLanguage {
            try ImageProcessor.decodingCost(of: url, maxPixels)
        }
        let passes: [(side: Int, angle: Double)] = [(Self.quickSide, 0), (Self.quickSide, 45), (Self.detailedSide, 0)]
        var result = BarcodeScan()
        for pass in passes {
            // Each pass holds at most detailedSide² bytes of grey pixels on top of the decode itself.
            let codes = try await processor.limiter.run(cost: cost + pass.side * pass.side) {
                try await processor.threadPool.runInLanguage {
                    try Self.codes(in: url, side: pass.side, angle: pass.angle)
                }
            }
            result = Self.classify(codes)
            if !result.isbns.isEmpty { break }
        }
        shelfed_release_free_memory()
        return result
    }

    static func classify(_ codes: [String]) -> BarcodeScan {
        var scan = BarcodeScan()
        for code in codes {
            if code.count == 13, code.hasPrefix("978") || code.hasPrefix("979"), let isbn = ISBN(code) {
                if !scan.isbns.contains(isbn) { scan.isbns.append(isbn) }
            } else if !scan.otherCodes.contains(code) {
                scan.otherCodes.append(code)
            }
        }
        return scan
    }

    /// The digits of every barcode zbar finds in one pass (blocking: run on the thread pool).
    static func codes(in url: URL, side: Int, angle: Double) throws -> [String] {
        defer { shelfed_vips_clear_error() }
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        guard shelfed_vips_grey_pixels(url.path, Int32(side), angle, &pixels, &width, &height) == 0, let pixels else {
            throw AppError.unsupportedMedia(
                localized("That file could not be read as a picture; it may be damaged or cut short.") + " "
                    + localized("Try the photo again."))
        }
        defer { shelfed_vips_free_pixels(pixels) }
        let slot = 32
        var buffer = [CChar](repeating: 0, count: slot * maxSymbols)
        var xs = [Int32](repeating: 0, count: maxSymbols)
        var ys = [Int32](repeating: 0, count: maxSymbols)
        let found = buffer.withUnsafeMutableBufferPointer { text in
            xs.withUnsafeMutableBufferPointer { xs in
                ys.withUnsafeMutableBufferPointer { ys in
                    shelfed_zbar_scan(
                        pixels, width, height, text.baseAddress, Int32(slot), xs.baseAddress, ys.baseAddress,
                        Int32(maxSymbols))
                }
            }
        }
        guard found > 0 else { return [] }
        let symbols = (0..<Int(found)).map { index in
            let bytes = buffer[(index * slot)..<((index + 1) * slot)].prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            return (code: String(decoding: bytes, as: UTF8.self), x: xs[index], y: ys[index])
        }
        // Books laid side by side are reported left to right, as they lie.
        return symbols.sorted { ($0.x, $0.y) < ($1.x, $1.y) }
            .map(\.code).filter { !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
    }
}
