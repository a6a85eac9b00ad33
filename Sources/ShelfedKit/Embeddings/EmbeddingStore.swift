import Foundation
import GRDB

/// The meaning vectors in SQLite (`book_embedding`, `photo_embedding`): what still needs one, saving them, and
/// reading a person's own for ranking. Every read for ranking joins to the person's own shelf or photos.
struct EmbeddingStore: Sendable {
    let db: AppDatabase
    /// The people's vectors kept between searches; nil reads them each time (the background workers' stores).
    var libraryVectors: LibraryVectorsMemo? = nil

    enum Kind: String, Sendable {
        case book, photo
    }

    /// One text waiting for its vector.
    struct Pending: Sendable, Equatable {
        let id: Int64
        let text: String
    }

    /// The text a book is known by: "Title: Subtitle. by A, B. Categories. Description." The categories come before
    /// the description, not after it, so a long description cut at the model's limit never loses them — they are
    /// what matches a broad topic ("something about chess").
    static func text(of book: Book) -> String {
        var parts = [book.subtitle.map { "\(book.title): \($0)" } ?? book.title]
        if !book.authors.isEmpty { parts.append("by " + book.authors.joined(separator: ", ")) }
        if !book.categories.isEmpty { parts.append(book.categories.joined(separator: ", ")) }
        if let description = book.description, !description.isEmpty { parts.append(description) }
        return parts.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            .joined(separator: ". ")
    }

    /// The text of a page photo: its comment, then the words read on it.
    static func text(comment: String?, words: String?) -> String {
        [comment, words].compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            .joined(separator: ". ")
    }

    /// Up to `limit` books someone has, with no vector from `model` yet, newest first: a book just added is found by
    /// meaning within seconds even while a large import's thousands of rows wait behind it. A row nobody has is never
    /// embedded: it could only be found by discovery, which shows rows someone has (`CatalogVisibility`).
    func booksWaiting(model: String, limit: Int) async throws -> [Pending] {
        try await db.read { db in
            try Book.fetchAll(
                db,
                sql: """
                    SELECT book.* FROM book LEFT JOIN book_embedding ON book_embedding.book_id = book.id
                    WHERE (book_embedding.book_id IS NULL OR book_embedding.model != ?)
                        AND EXISTS (SELECT 1 FROM user_book WHERE user_book.book_id = book.id)
                    ORDER BY book.id DESC LIMIT ?
                    """, arguments: [model, limit]
            ).map { Pending(id: $0.id!, text: Self.text(of: $0)) }
        }
    }

    /// Up to `limit` page photos with words or a comment and no vector from `model` yet.
    func photosWaiting(model: String, limit: Int) async throws -> [Pending] {
        try await db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT photo.id, photo.comment, photo.ocr_text FROM photo
                    LEFT JOIN photo_embedding ON photo_embedding.photo_id = photo.id
                    WHERE photo.book_id IS NOT NULL
                        AND (COALESCE(photo.ocr_text, '') != '' OR COALESCE(photo.comment, '') != '')
                        AND (photo_embedding.photo_id IS NULL OR photo_embedding.model != ?)
                    ORDER BY photo.id LIMIT ?
                    """, arguments: [model, limit]
            ).map { Pending(id: $0[0], text: Self.text(comment: $0[1], words: $0[2])) }
        }
    }

    /// Saves the vectors made for `pending` (nil: could not be embedded; not tried again until its text changes).
    /// A text that changed while it was being embedded is skipped: its new text is embedded next time round.
    func save(_ kind: Kind, _ pending: [Pending], vectors: [[Float]]?, model: String, now: Date) async throws {
        try await db.write { db in
            for (index, item) in pending.enumerated() {
                let current: String? =
                    switch kind {
                    case .book: try Book.fetchOne(db, key: item.id).map(Self.text(of:))
                    case .photo:
                        try Row.fetchOne(
                            db, sql: "SELECT comment, ocr_text FROM photo WHERE id = ?", arguments: [item.id]
                        )
                        .map { Self.text(comment: $0[0], words: $0[1]) }
                    }
                guard current == item.text else { continue }
                let vector = vectors.flatMap { index < $0.count ? MeaningVector.encode($0[index]) : nil }
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO \(kind.rawValue)_embedding (\(kind.rawValue)_id, model, vector, embedded_at)
                        VALUES (?, ?, ?, ?)
                        """, arguments: [item.id, model, vector, now])
            }
        }
    }

    /// The cosine of `query` to each book on `userID`'s shelves that has a vector.
    func libraryCosines(of userID: Int64, to query: [Float], model: String) async throws -> [(
        id: Int64, cosine: Float
    )] {
        try await libraryVectors(of: userID, model: model).cosines(to: query)
    }

    /// `userID`'s vectors, as kept (`libraryVectors`) or read now.
    private func libraryVectors(of userID: Int64, model: String) async throws -> LibraryVectors {
        guard let libraryVectors else {
            return try await db.read { db in try LibraryVectors.read(of: userID, model: model, db) }
        }
        return try await libraryVectors.answer(for: LibraryVectorsKey(userID: userID, model: model)) {
            try await db.read { db in try LibraryVectors.read(of: userID, model: model, db) }
        }
    }

    /// The cosine of `query` to each of `userID`'s page photos that has a vector.
    func photoCosines(of userID: Int64, to query: [Float], model: String) async throws -> [(
        id: Int64, cosine: Float
    )] {
        try await cosines(
            to: query,
            sql: """
                SELECT photo.id, photo_embedding.vector FROM photo
                JOIN photo_embedding ON photo_embedding.photo_id = photo.id
                WHERE photo.user_id = ? AND photo.book_id IS NOT NULL AND photo_embedding.model = ?
                    AND photo_embedding.vector IS NOT NULL
                """, arguments: [userID, model])
    }

    /// The cosine of `query` to each `(id, vector)` row `sql` selects, read from the vectors' bytes.
    private func cosines(to query: [Float], sql: String, arguments: StatementArguments) async throws -> [(
        id: Int64, cosine: Float
    )] {
        try await db.read { db in
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            var cosines: [(id: Int64, cosine: Float)] = []
            while let row = try rows.next() {
                // The vector's bytes where SQLite holds them: a copy per book was a malloc and a free each.
                if let cosine = try row.withUnsafeData(atIndex: 1, { MeaningVector.dot(query, stored: $0) }) {
                    cosines.append((row[0], cosine))
                }
            }
            return cosines
        }
    }

    /// How many of `userID`'s books have a vector, of how many.
    func libraryProgress(of userID: Int64, model: String) async throws -> (embedded: Int, total: Int) {
        let vectors = try await libraryVectors(of: userID, model: model)
        return (vectors.embedded, vectors.total)
    }

    /// How many of `userID`'s page photos with words or a comment have a vector, of how many.
    func photoProgress(of userID: Int64, model: String) async throws -> (embedded: Int, total: Int) {
        try await db.read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*), COUNT(photo_embedding.photo_id) FROM photo
                    LEFT JOIN photo_embedding ON photo_embedding.photo_id = photo.id AND photo_embedding.model = ?
                    WHERE photo.user_id = ? AND photo.book_id IS NOT NULL
                        AND (COALESCE(photo.ocr_text, '') != '' OR COALESCE(photo.comment, '') != '')
                    """, arguments: [model, userID])
            return (row?[1] ?? 0, row?[0] ?? 0)
        }
    }
}

/// A meaning vector as stored: float16, little-endian — half the size of float32 and, for ranking unit vectors,
/// the same order (DESIGN §14).
enum MeaningVector {
    static func encode(_ vector: [Float]) -> Data {
        var data = Data(capacity: vector.count * 2)
        for value in vector {
            let bits = Float16(value).bitPattern.littleEndian
            withUnsafeBytes(of: bits) { data.append(contentsOf: $0) }
        }
        return data
    }

    /// nil for a blob that is not 384 float16 values.
    static func decode(_ data: Data?) -> [Float]? {
        guard let data, data.count == TextEmbedder.dimensions * 2 else { return nil }
        return data.withUnsafeBytes { bytes in
            (0..<TextEmbedder.dimensions).map { index in
                float(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self)))
            }
        }
    }

    /// The dot product of `query` with a stored vector, read straight from its bytes (no array made): ranking a
    /// library is this, once per book. nil for a blob that is not 384 float16 values.
    ///
    /// Eight values at a time: a float16's bits moved into a float's place and scaled by 2¹¹² give the same value,
    /// subnormals included, in a few vector instructions, where converting one value at a time was a fifth of a
    /// 5,000-book search's CPU. (Infinities and NaNs, which no stored vector holds, come out large and finite.)
    static func dot(_ query: [Float], stored data: Data?) -> Float? {
        guard let data else { return nil }
        return data.withUnsafeBytes { dot(query, storedBytes: $0) }
    }

    /// The bytes of one stored vector.
    static let storedBytes = TextEmbedder.dimensions * 2

    /// `dot(_:stored:)` over bytes already in memory (`LibraryVectors` keeps a library's end to end).
    static func dot(_ query: [Float], storedBytes bytes: UnsafeRawBufferPointer) -> Float? {
        guard bytes.count == storedBytes, query.count == TextEmbedder.dimensions else { return nil }
        #if _endian(little)
            return query.withUnsafeBytes { query in
                var sum = SIMD8<Float>(repeating: 0)
                for block in 0..<TextEmbedder.dimensions / 8 {
                    let halves = SIMD8<UInt32>(
                        truncatingIfNeeded: bytes.loadUnaligned(fromByteOffset: block * 16, as: SIMD8<UInt16>.self))
                    let magnitude = unsafeBitCast((halves & 0x7FFF) &<< 13, to: SIMD8<Float>.self) * 0x1p112
                    let value = unsafeBitCast(
                        unsafeBitCast(magnitude, to: SIMD8<UInt32>.self) | (halves & 0x8000) &<< 16,
                        to: SIMD8<Float>.self)
                    sum += query.loadUnaligned(fromByteOffset: block * 32, as: SIMD8<Float>.self) * value
                }
                return sum.sum()
            }
        #else
            var sum: Float = 0
            for index in 0..<TextEmbedder.dimensions {
                let bits = UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 2, as: UInt16.self))
                sum += query[index] * float(bits)
            }
            return sum
        #endif
    }

    /// A float16 bit pattern as a Float, by moving its fields into place: Swift's own conversion is a library call
    /// per value on x86-64 without F16C, five times slower over a library.
    @inline(__always)
    static func float(_ bits: UInt16) -> Float {
        let sign = UInt32(bits & 0x8000) << 16
        let exponent = UInt32(bits >> 10) & 0x1F
        let mantissa = UInt32(bits & 0x3FF)
        switch exponent {
        case 0:  // zero or subnormal: mantissa × 2⁻²⁴
            let magnitude = Float(mantissa) * 0x1p-24
            return sign == 0 ? magnitude : -magnitude
        case 31:  // infinity or NaN
            return Float(bitPattern: sign | 0x7F80_0000 | mantissa << 13)
        default:
            return Float(bitPattern: sign | (exponent + 112) << 23 | mantissa << 13)
        }
    }

    static func dot(_ a: [Float], _ b: [Float]) -> Float {
        var sum: Float = 0
        for index in 0..<min(a.count, b.count) { sum += a[index] * b[index] }
        return sum
    }
}
