import Foundation
import GRDB
import Hummingbird
import NIOCore
import ZIPFoundation

/// Profile settings → "Your data": everyone can download their own books, lists, ratings, reviews, notes and
/// photos; the household's first account can also download a full backup of the server.
struct DataDownloadController: Sendable {
    let database: AppDatabase
    let users: UserStore
    /// What "Your data" holds of one person.
    let exports: MyDataStore
    let dataDirectory: URL
    let media: MediaStore
    let clock: AppClock

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.myData.routerPath, use: myData)
        router.get(Route.serverBackup.routerPath, use: backup)
    }

    /// GET /profile/backup: the whole server (the same zip as `shelfed backup`), for the first account only.
    @Sendable func backup(_ request: Request, context: SignedInContext) async throws -> Response {
        guard try await users.isAdmin(context.userID) else {
            throw HTTPError(.notFound, message: localized("Only the household's admin can download the server backup."))
        }
        let file = Backup.scratchURL(in: dataDirectory, suffix: ".zip")
        let (dataDirectory, writer, now) = (self.dataDirectory, database.writer, clock.now())
        try await AppDatabase.threadPool.runIfActive {
            _ = try Backup.create(dataDirectory: dataDirectory, to: file, database: writer, now: now)
        }
        return try Self.download(file, name: "shelfed-backup-\(clock.today()).zip")
    }

    /// GET /profile/my-data: the signed-in person's own data as JSON, with their photos' original files.
    @Sendable func myData(_ request: Request, context: SignedInContext) async throws -> Response {
        try await myDataResponse(of: context.userID, name: "shelfed-my-data")
    }

    /// One person's data as the zip "Your data" downloads, named `name-<today>.zip`; also what the admin may keep of
    /// a member before removing them.
    func myDataResponse(of userID: Int64, name: String) async throws -> Response {
        let file = Backup.scratchURL(in: dataDirectory, suffix: ".zip")
        let (store, mediaRoot) = (exports, media.root)
        try await AppDatabase.threadPool.runIfActive {
            let export = try store.export(of: userID)
            let archive = try Archive(url: file, accessMode: .create)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let json = try encoder.encode(export)
            try archive.addEntry(
                with: "my-data.json", type: .file, uncompressedSize: Int64(json.count), compressionMethod: .deflate,
                provider: { position, size in json.subdata(in: Int(position)..<Int(position) + size) })
            for photo in export.photos {
                let source = mediaRoot.appendingPathComponent(photo.storedFile)
                guard FileManager.default.fileExists(atPath: source.path) else { continue }
                try archive.addEntry(with: photo.file, fileURL: source)
            }
        }
        return try Self.download(file, name: "\(name)-\(clock.today()).zip")
    }

    /// Streams a finished zip in chunks (a backup with photos is gigabytes). The file is opened and at once removed
    /// from the folder: its space is the open handle's, given back when the handle is closed — after the last chunk,
    /// when the person stops the download, or when a HEAD request's answer, which never sends the body, is dropped.
    /// Nothing a request writes outlives it.
    static func download(_ file: URL, name: String) throws -> Response {
        let handle: FileHandle
        let size: Int?
        do {
            defer { try? FileManager.default.removeItem(at: file) }
            handle = try FileHandle(forReadingFrom: file)
            size = try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/zip"
        headers[.contentDisposition] = "attachment; filename=\"\(name)\""
        headers[.cacheControl] = "no-store"
        if let size { headers[.contentLength] = String(size) }
        let download = OpenDownload(handle: handle)
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                defer { download.close() }
                while let chunk = try download.handle.read(upToCount: 256 * 1024), !chunk.isEmpty {
                    try await writer.write(ByteBuffer(bytes: chunk))
                }
                try await writer.finish(nil)
            })
    }
}

/// The open handle of a download whose file is already gone from the folder; closed when the body ends or, for an
/// answer whose body is never sent, when the answer is dropped.
final class OpenDownload: Sendable {
    let handle: FileHandle

    init(handle: FileHandle) {
        self.handle = handle
    }

    func close() {
        try? handle.close()
    }

    deinit {
        try? handle.close()
    }
}
