import CImaging
import Foundation
import Hummingbird
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
    let limiter: ConcurrencyLimiter

    public init(maxMegapixels: Int = 100, concurrentImages: Int = 2) {
        self.maxMegapixels = maxMegapixels
        self.limiter = ConcurrencyLimiter(permits: concurrentImages)
    }

    /// Whether iPhone HEIC photos can be read by the installed libvips.
    public static var canReadHEIC: Bool { VipsRuntime.shared.started && shelfed_vips_can_read_heif() != 0 }

    public func derive(from source: URL, display: URL, thumbnail: URL, squareThumbnail: Bool = false) async throws
        -> DerivedImages
    {
        let maxPixels = maxMegapixels * 1_000_000
        return try await limiter.run {
            try await NIOThreadPool.singleton.runIfActive {
                try Self.deriveBlocking(source, display, thumbnail, squareThumbnail, maxPixels)
            }
        }
    }

    private static func deriveBlocking(_ source: URL, _ display: URL, _ thumbnail: URL, _ square: Bool, _ maxPixels: Int)
        throws -> DerivedImages
    {
        guard VipsRuntime.shared.started else {
            throw HTTPError(.internalServerError, message: "The image library could not start.")
        }
        defer { shelfed_vips_clear_error() }
        var width: Int32 = 0
        var height: Int32 = 0
        guard shelfed_vips_header(source.path, &width, &height) == 0 else { throw unreadable() }
        // Checked from the header alone, before any pixel is decoded: a small file can claim a vast image.
        guard Int(width) * Int(height) <= maxPixels else {
            throw HTTPError(
                .contentTooLarge,
                message: "That image is \(Int(width)) × \(Int(height)) pixels; Shelfed accepts up to "
                    + "\(maxPixels / 1_000_000) megapixels. Take a smaller photo or a screenshot of it.")
        }
        var displayWidth: Int32 = 0
        var displayHeight: Int32 = 0
        var thumbWidth: Int32 = 0
        var thumbHeight: Int32 = 0
        // The original is decoded once; the thumbnail comes from the (already upright, metadata-free) display
        // image, which is far quicker than decoding 12 megapixels twice.
        guard shelfed_vips_derive(source.path, display.path, Int32(displaySize), 0, 82, &displayWidth, &displayHeight) == 0,
            shelfed_vips_derive(
                display.path, thumbnail.path, Int32(thumbnailSize), square ? 1 : 0, 78, &thumbWidth, &thumbHeight) == 0
        else { throw unreadable() }
        // Decoding a photo takes tens of megabytes; hand them back to the system instead of keeping them.
        shelfed_release_memory()
        return DerivedImages(
            displayWidth: Int(displayWidth), displayHeight: Int(displayHeight), thumbnailWidth: Int(thumbWidth),
            thumbnailHeight: Int(thumbHeight))
    }

    private static func unreadable() -> HTTPError {
        HTTPError(
            .unsupportedMediaType,
            message: "That file could not be read as a picture; it may be damaged or cut short. Try the photo again.")
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

/// At most `permits` bodies run at once; the rest wait their turn in order.
actor ConcurrencyLimiter {
    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(permits: Int) {
        available = max(1, permits)
    }

    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if available > 0 {
            available -= 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
        defer {
            if waiting.isEmpty { available += 1 } else { waiting.removeFirst().resume() }
        }
        return try await body()
    }
}
