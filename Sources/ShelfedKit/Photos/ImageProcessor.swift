import CImaging
import CMemory
import Foundation
import NIOPosix

/// A display image and a thumbnail made from an upload, with their sizes.
public struct DerivedImages: Sendable, Equatable {
    public let displayWidth: Int
    public let displayHeight: Int
    public let thumbnailWidth: Int
    public let thumbnailHeight: Int
}

/// Turns an uploaded original into an upright display image (longest side ≤ 1600 px) and a thumbnail
/// (≤ 400 px), both JPEG without EXIF or GPS, through libvips on the blocking thread pool, a few at a time.
public struct ImageProcessor: Sendable {
    public static let displaySize = 1600
    public static let thumbnailSize = 400
    public let maxMegapixels: Int
    let limiter: ImageWorkLimiter
    /// What the image work of all uploads together may take (DESIGN §11: four hostile images at once must keep the
    /// whole server under 200 MB). Baseline JPEG, PNG and WebP decode while shrinking and need about 30 MB.
    public static let memoryBudget = 128 * 1_048_576
    static let shrinkingDecodeCost = 32 * 1_048_576

    /// Where decoding runs, off the event loops: the composition root's blocking pool.
    let threadPool: NIOThreadPool

    public init(maxMegapixels: Int = 100, concurrentImages: Int = 2, threadPool: NIOThreadPool = .singleton) {
        self.maxMegapixels = maxMegapixels
        self.threadPool = threadPool
        self.limiter = ImageWorkLimiter(permits: concurrentImages, budget: Self.memoryBudget)
    }

    /// Whether iPhone HEIC photos can be read by the installed libvips.
    public static var canReadHEIC: Bool { VipsRuntime.shared.started && shelfed_vips_can_read_heif() != 0 }

    /// The kind of the upload at `url`, or 415 with what to send instead: for a file that is no accepted image, and
    /// for an iPhone HEIC photo on a server whose libvips cannot read it. `retry` ends the HEIC advice.
    static func readableKind(at url: URL, retry: String = localized("and take the photo again.")) throws -> ImageKind {
        guard let kind = ImageKind.detect(at: url) else {
            throw AppError.unsupportedMedia(
                localized("That file is not a photo Shelfed can read. Use a JPEG, PNG or WebP picture."))
        }
        if kind == .heic, !canReadHEIC {
            throw AppError.unsupportedMedia(
                localized("This server cannot read iPhone HEIC photos.") + " "
                    + localized(
                        "On the iPhone, choose Settings → Camera → Formats → Most Compatible (JPEG), {{retry}}",
                        ["retry": retry]))
        }
        return kind
    }

    public func derive(from source: URL, display: URL, thumbnail: URL, squareThumbnail: Bool = false) async throws
        -> DerivedImages
    {
        let maxPixels = maxMegapixels * 1_000_000
        let cost = try await threadPool.runInLanguage { try Self.decodingCost(of: source, maxPixels) }
        return try await limiter.run(cost: cost) {
            try await threadPool.runInLanguage {
                try Self.deriveBlocking(source, display, thumbnail, squareThumbnail)
            }
        }
    }

    /// A display image and thumbnail made from `source` (an original, never changed) with `edit` applied: turned,
    /// cropped, then shrunk as `derive` does. The thumbnail comes from the display image.
    func derive(from source: URL, applying edit: PhotoEdit, display: URL, thumbnail: URL) async throws
        -> DerivedImages
    {
        guard !edit.isNone else { return try await derive(from: source, display: display, thumbnail: thumbnail) }
        let maxPixels = maxMegapixels * 1_000_000
        let cost = try await threadPool.runInLanguage { try Self.decodingCost(of: source, maxPixels) }
        return try await limiter.run(cost: cost) {
            try await threadPool.runInLanguage { try Self.editBlocking(source, edit, display, thumbnail) }
        }
    }

    private static func editBlocking(_ source: URL, _ edit: PhotoEdit, _ display: URL, _ thumbnail: URL) throws
        -> DerivedImages
    {
        let crop = edit.crop
        return try derivedImages(display: display, thumbnail: thumbnail, square: false) { width, height in
            shelfed_vips_edit(
                source.path, display.path, Int32(displaySize), 82, Int32(edit.quarterTurns % 4), crop.left, crop.top,
                crop.right, crop.bottom, &width, &height)
        }
    }

    /// The memory decoding `source` will take, from its header alone, before any pixel is decoded; refuses an
    /// image that claims too many pixels (a small file can claim a vast image) or would need more than the budget.
    static func decodingCost(of source: URL, _ maxPixels: Int) throws -> Int {
        guard VipsRuntime.shared.started else {
            throw AppError.internal(localized("The image library could not start."))
        }
        defer { shelfed_vips_clear_error() }
        var width: Int32 = 0
        var height: Int32 = 0
        guard shelfed_vips_header(source.path, &width, &height) == 0 else { throw unreadable() }
        let pixels = Int(width) * Int(height)
        guard pixels <= maxPixels else {
            throw AppError.tooLarge(
                localized(
                    "That image is {{width}} × {{height}} pixels; Shelfed accepts up to {{megapixels}} megapixels.",
                    ["width": String(width), "height": String(height), "megapixels": String(maxPixels / 1_000_000)])
                    + " " + localized("Take a smaller photo or a screenshot of it."))
        }
        var cost = shrinkingDecodeCost
        switch ImageKind.detect(at: source) {
        case .heic:
            cost += pixels * 4  // libheif decodes the whole picture before it is shrunk
        case .jpeg:
            cost += JPEGFrame.read(at: source)?.progressiveBufferBytes ?? 0
        case .png:
            cost += PNGHeader.read(at: source)?.interlacedBufferBytes ?? 0
        case .webp, nil:
            break
        }
        guard cost <= memoryBudget else {
            let details = localized(
                "{{megapixels}} megapixels, saved as a progressive JPEG, an interlaced PNG or HEIC",
                ["megapixels": String(pixels / 1_000_000)])
            throw AppError.tooLarge(
                localized(
                    "That picture ({{details}}) would take more memory to read than this server allows.",
                    ["details": details]) + " "
                    + localized(
                        "Save it as an ordinary JPEG, as phone cameras do, or make it smaller, and upload it again."))
        }
        return cost
    }

    private static func deriveBlocking(_ source: URL, _ display: URL, _ thumbnail: URL, _ square: Bool)
        throws -> DerivedImages
    {
        try derivedImages(display: display, thumbnail: thumbnail, square: square) { width, height in
            shelfed_vips_derive(source.path, display.path, Int32(displaySize), 0, 82, &width, &height)
        }
    }

    /// Makes the display image with `makeDisplay` (a libvips call answering 0 on success and filling in the size),
    /// then the thumbnail from it: the original is decoded once, and the (already upright, metadata-free) display
    /// image is far quicker to shrink again than 12 megapixels.
    private static func derivedImages(
        display: URL, thumbnail: URL, square: Bool, makeDisplay: (inout Int32, inout Int32) -> Int32
    ) throws -> DerivedImages {
        guard VipsRuntime.shared.started else {
            throw AppError.internal(localized("The image library could not start."))
        }
        defer { shelfed_vips_clear_error() }
        var displayWidth: Int32 = 0
        var displayHeight: Int32 = 0
        var thumbWidth: Int32 = 0
        var thumbHeight: Int32 = 0
        guard makeDisplay(&displayWidth, &displayHeight) == 0,
            shelfed_vips_derive(
                display.path, thumbnail.path, Int32(thumbnailSize), square ? 1 : 0, 78, &thumbWidth, &thumbHeight) == 0
        else { throw unreadable() }
        // Decoding a photo takes tens of megabytes; hand them back to the system instead of keeping them.
        shelfed_release_free_memory()
        return DerivedImages(
            displayWidth: Int(displayWidth), displayHeight: Int(displayHeight), thumbnailWidth: Int(thumbWidth),
            thumbnailHeight: Int(thumbHeight))
    }

    private static func unreadable() -> AppError {
        AppError.unsupportedMedia(
            localized("That file could not be read as a picture; it may be damaged or cut short.") + " "
                + localized("Try the photo again."))
    }
}

/// libvips is started on first use, so a server that never sees a photo never pays for it.
final class VipsRuntime: Sendable {
    static let shared = VipsRuntime()
    let started: Bool

    private init() {
        started = shelfed_vips_start() == 0
    }
}

/// At most `permits` images are worked on at once, and together they may need at most `budget` bytes; the rest
/// wait their turn in order. One image whose cost alone fills the budget runs by itself.
actor ImageWorkLimiter {
    private let permits: Int
    private let budget: Int
    private var running = 0
    private var reserved = 0
    private var waiting: [(cost: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(permits: Int, budget: Int) {
        self.permits = max(1, permits)
        self.budget = budget
    }

    func run<T: Sendable>(cost: Int, _ body: @Sendable () async throws -> T) async throws -> T {
        if waiting.isEmpty, canStart(cost) {
            start(cost)
        } else {
            await withCheckedContinuation { waiting.append((cost, $0)) }
        }
        defer { finish(cost) }
        return try await body()
    }

    private func canStart(_ cost: Int) -> Bool {
        running == 0 || (running < permits && reserved + cost <= budget)
    }

    private func start(_ cost: Int) {
        running += 1
        reserved += cost
    }

    private func finish(_ cost: Int) {
        running -= 1
        reserved -= cost
        while let next = waiting.first, canStart(next.cost) {
            waiting.removeFirst()
            start(next.cost)
            next.continuation.resume()
        }
    }
}
