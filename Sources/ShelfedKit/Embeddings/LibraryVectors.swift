import Foundation
import GRDB

/// One person's book vectors end to end (float16 bytes, `TextEmbedder.dimensions` a book), kept between searches
/// (`CommitMemo`) until a vector or a shelf entry changes. Reading 5,000 vectors back from SQLite on every search was
/// most of "Search my library"'s CPU (a thousand page reads and a row a book); kept, a search multiplies 3.8 MB in
/// place. Let go after `lifetime` unused, and by the idle server.
struct LibraryVectors: Sendable {
    let bookIDs: [Int64]
    /// `bookIDs.count` vectors, each `MeaningVector.storedBytes` long, in the same order.
    let bytes: Data
    /// The person's books read for meaning (a text that gave no vector counts: it was read), of all their books:
    /// the search page's "still being read" line. Counted here because checking each book's model apart read every
    /// vector's page again (a vector is kept in its row).
    let embedded: Int
    let total: Int

    /// The cosine of `query` to each book's vector.
    func cosines(to query: [Float]) -> [(id: Int64, cosine: Float)] {
        let size = MeaningVector.storedBytes
        return bytes.withUnsafeBytes { all in
            bookIDs.indices.compactMap { index in
                let vector = UnsafeRawBufferPointer(rebasing: all[(index * size)..<((index + 1) * size)])
                return MeaningVector.dot(query, storedBytes: vector).map { (bookIDs[index], $0) }
            }
        }
    }

    /// `userID`'s books that have a vector of `model`, read in one pass.
    static func read(of userID: Int64, model: String, _ db: Database) throws -> LibraryVectors {
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT user_book.book_id, book_embedding.vector FROM user_book
                    JOIN book_embedding ON book_embedding.book_id = user_book.book_id
                    WHERE user_book.user_id = ? AND book_embedding.model = ?
                    """), arguments: [userID, model])
        var ids: [Int64] = []
        var bytes = Data()
        var embedded = 0
        while let row = try rows.next() {
            embedded += 1
            try row.withUnsafeData(atIndex: 1) { data in
                // A blob of another size is no vector (as `MeaningVector.dot` says): left out.
                guard let data, data.count == MeaningVector.storedBytes else { return }
                ids.append(row[0])
                bytes.append(data)
            }
        }
        let total =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM user_book WHERE user_id = ?"), arguments: [userID]) ?? 0
        return LibraryVectors(bookIDs: ids, bytes: bytes, embedded: embedded, total: total)
    }
}

/// Whose vectors, by which model.
struct LibraryVectorsKey: Hashable, Sendable {
    let userID: Int64
    let model: String
}

typealias LibraryVectorsMemo = CommitMemo<LibraryVectorsKey, LibraryVectors>

extension CommitMemo where Key == LibraryVectorsKey, Value == LibraryVectors {
    /// Forgotten when a vector is written or a book joins or leaves a shelf (a shelf move or progress is no change).
    /// A few people at once: 5,000 books' vectors are 3.8 MB.
    convenience init(database: AppDatabase, lifetime: Duration) {
        self.init(
            database: database,
            tracking: [Table("book_embedding"), Table("user_book").select(Column("user_id"), Column("book_id"))],
            capacity: 4, lifetime: lifetime)
    }
}
