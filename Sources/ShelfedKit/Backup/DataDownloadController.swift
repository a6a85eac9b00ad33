import Foundation
import GRDB
import Hummingbird
import NIOCore
import ZIPFoundation

/// Profile settings → "Your data": everyone can download their own books, lists, ratings, reviews, notes and
/// photos; the household's first account can also download a full backup of the server.
struct DataDownloadController: Sendable {
    let database: AppDatabase
    let dataDirectory: URL
    let media: MediaStore
    let clock: AppClock

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.myData.routerPath, use: myData)
        router.get(Route.serverBackup.routerPath, use: backup)
    }

    /// GET /profile/backup: the whole server (the same zip as `shelfed backup`), for the first account only.
    @Sendable func backup(_ request: Request, context: SignedInContext) async throws -> Response {
        guard try await UserStore(db: database).isFirstAccount(context.userID) else {
            throw HTTPError(.notFound, message: "Only the household's first account can download the server backup.")
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
        let userID = context.userID
        let file = Backup.scratchURL(in: dataDirectory, suffix: ".zip")
        let (writer, mediaRoot) = (database.writer, media.root)
        try await AppDatabase.threadPool.runIfActive {
            let export = try writer.read { db in try MyDataExport.collect(userID: userID, db) }
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
        return try Self.download(file, name: "shelfed-my-data-\(clock.today()).zip")
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

/// One person's data, in plain JSON that any program can read.
struct MyDataExport: Encodable {
    struct BookEntry: Encodable {
        let title: String
        let subtitle: String?
        let authors: [String]
        let isbn13: String?
        let isbn10: String?
        let publisher: String?
        let publishedDate: String?
        let pageCount: Int?
        let shelf: String
        let favourite: Bool
        let rating: Double?
        let review: String?
        let privateNotes: String?
        let owned: Bool?
        let format: String?
        let addedAt: Date
        let startedOn: String?
        let finishedOn: String?
        let reads: [ReadThrough]
        let lists: [String]
        let externalIds: [String: String]
    }

    struct PhotoEntry: Encodable {
        let book: String?
        let pageNumber: Int?
        let comment: String?
        let takenAt: Date?
        let createdAt: Date
        /// The original's path inside the zip.
        let file: String
        /// Where it is in the media folder; not written out.
        let storedFile: String

        enum CodingKeys: String, CodingKey { case book, pageNumber, comment, takenAt, createdAt, file }
    }

    let username: String
    let displayName: String
    let email: String
    let exportedBy = "Shelfed"
    let books: [BookEntry]
    let lists: [String]
    let photos: [PhotoEntry]

    static func collect(userID: Int64, _ db: Database) throws -> MyDataExport {
        let user = try Row.fetchOne(
            db, sql: "SELECT username, display_name, email FROM user WHERE id = ?", arguments: [userID])
        var listsByEntry: [Int64: [String]] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT list_item.user_book_id, list.name FROM list_item JOIN list ON list.id = list_item.list_id
                WHERE list.user_id = ? ORDER BY list.position
                """, arguments: [userID])
        {
            listsByEntry[row[0], default: []].append(row[1])
        }
        var reads: [Int64: [ReadThrough]] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT read_through.user_book_id, read_through.started_at, read_through.finished_at
                FROM read_through
                JOIN user_book ON user_book.id = read_through.user_book_id WHERE user_book.user_id = ?
                ORDER BY read_through.id
                """, arguments: [userID])
        {
            reads[row[0], default: []].append(ReadThrough(startedOn: row[1], finishedOn: row[2]))
        }
        let decoder = JSONDecoder()
        let books = try Row.fetchAll(
            db,
            sql: """
                SELECT user_book.*, user_book.id AS entry_id, book.title, book.subtitle, book.authors, book.isbn13,
                    book.isbn10, book.publisher, book.published_date, book.page_count, book.external_ids
                FROM user_book JOIN book ON book.id = user_book.book_id WHERE user_book.user_id = ?
                ORDER BY user_book.added_at, user_book.id
                """, arguments: [userID]
        ).map { row in
            let entryID: Int64 = row["entry_id"]
            return BookEntry(
                title: row["title"], subtitle: row["subtitle"],
                authors: (try? decoder.decode([String].self, from: Data((row["authors"] as String).utf8))) ?? [],
                isbn13: row["isbn13"], isbn10: row["isbn10"], publisher: row["publisher"],
                publishedDate: row["published_date"], pageCount: row["page_count"], shelf: row["shelf"],
                favourite: row["favourite"], rating: row["rating"], review: row["review"],
                privateNotes: row["private_notes"], owned: row["owned"], format: row["format"],
                addedAt: row["added_at"],
                startedOn: row["started_at"], finishedOn: row["finished_at"], reads: reads[entryID] ?? [],
                lists: listsByEntry[entryID] ?? [],
                externalIds: (try? decoder.decode(
                    [String: String].self, from: Data((row["external_ids"] as String).utf8)))
                    ?? [:])
        }
        let photos = try Row.fetchAll(
            db,
            sql: """
                SELECT photo.id, photo.original_path, photo.page_number, photo.comment, photo.taken_at, photo.created_at,
                    book.title FROM photo LEFT JOIN book ON book.id = photo.book_id WHERE photo.user_id = ?
                ORDER BY photo.id
                """, arguments: [userID]
        ).map { row in
            let stored: String = row["original_path"]
            let ext = (stored as NSString).pathExtension
            let id: Int64 = row["id"]
            return PhotoEntry(
                book: row["title"], pageNumber: row["page_number"], comment: row["comment"], takenAt: row["taken_at"],
                createdAt: row["created_at"], file: "photos/\(id)" + (ext.isEmpty ? "" : ".\(ext)"), storedFile: stored)
        }
        let lists = try String.fetchAll(
            db, sql: "SELECT name FROM list WHERE user_id = ? ORDER BY position", arguments: [userID])
        return MyDataExport(
            username: user?["username"] ?? "", displayName: user?["display_name"] ?? "", email: user?["email"] ?? "",
            books: books, lists: lists, photos: photos)
    }
}
