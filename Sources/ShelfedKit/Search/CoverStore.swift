import AsyncHTTPClient
import Foundation
import Logging
import NIOCore

/// Downloads a book's cover once, checks it is an image, and keeps it under `data/covers/` so the
/// library never needs the provider's URL again.
struct CoverStore: Sendable {
    let http: @Sendable () -> HTTPClient
    let directory: URL
    let timeout: Duration
    let maxBytes: Int
    let logger: Logger

    /// The stored file's name, or nil when the cover could not be had (the page shows a placeholder).
    func download(_ url: String, for bookID: Int64) async -> String? {
        do {
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "User-Agent", value: UpstreamClient.userAgent)
            let response = try await http().execute(
                request, timeout: .nanoseconds(Int64(timeout.seconds * 1e9)))
            guard response.status == .ok else {
                logger.info("Cover for book \(bookID) answered \(response.status.code)")
                return nil
            }
            let body = try await response.body.collect(upTo: maxBytes)
            let bytes = Data(buffer: body)
            guard let fileExtension = Self.imageExtension(of: bytes) else {
                logger.info("Cover for book \(bookID) is not an image")
                return nil
            }
            return try store(bytes, name: "\(bookID)-\(UUID().uuidString.prefix(8).lowercased()).\(fileExtension)")
        } catch {
            logger.info("Cover for book \(bookID) could not be downloaded: \(error)")
            return nil
        }
    }

    /// Moves a cover made on this server (an uploaded picture, already converted) into the covers folder.
    func store(file: URL, for bookID: Int64) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let name = "\(bookID)-\(UUID().uuidString.prefix(8).lowercased()).jpg"
        try FileManager.default.moveItem(at: file, to: directory.appendingPathComponent(name))
        return name
    }

    /// Writes to a temporary name first and renames, so a half-written cover is never served.
    private func store(_ bytes: Data, name: String) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".incoming-\(UUID().uuidString)")
        do {
            try bytes.write(to: temporary)
            try FileManager.default.moveItem(at: temporary, to: directory.appendingPathComponent(name))
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        return name
    }

    func remove(_ name: String) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
    }

    /// The file extension for JPEG, PNG, GIF or WebP bytes, judged by their signature.
    static func imageExtension(of bytes: Data) -> String? {
        let head = [UInt8](bytes.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "jpg" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "png" }
        if head.starts(with: [0x47, 0x49, 0x46, 0x38]) { return "gif" }
        if head.count == 12, head.starts(with: [0x52, 0x49, 0x46, 0x46]),
            Array(head[8..<12]) == [0x57, 0x45, 0x42, 0x50]
        {
            return "webp"
        }
        return nil
    }
}
