import CLinearAlgebra
import Foundation
import GRDB

/// Ranking "Read next" ahead of the page (issue 35, finding 9): every Want-to-read book against every loved book is
/// one matrix product, W × L likenesses, which at 5,000 books was seconds of CPU on every home page. It is now made
/// once per change of its inputs (`read_next_state`), by `ReadNextRanker` in the background or by the first page that
/// finds it stale, and stored in `read_next_match`.
extension ReadNext {
    /// What one ranking read: the change count it was made from, and each book kept.
    struct Ranking: Sendable {
        struct Match: Sendable {
            let bookID: Int64
            let becauseBookID: Int64
            let score: Float
        }
        let changes: Int64
        let loved: Int
        let wanted: Int
        let matches: [Match]
    }

    /// A book with its vector and the keys of its authors' names, as the ranking reads it.
    private struct Ranked {
        let id: Int64
        let authors: Set<String>
        let vector: [Float]
    }

    /// Ranks the person's Want-to-read books from one snapshot of the database and stores the ranking unless a
    /// fresher one was stored meanwhile.
    func rank(_ userID: Int64) async throws {
        let ranking = try await db.read { db in try Self.ranking(of: userID, db) }
        try await db.write { db in try Self.store(ranking, of: userID, db) }
    }

    /// The users whose stored ranking is stale, the longest waiting first.
    func staleUsers(limit: Int) async throws -> [Int64] {
        try await db.read { db in
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT read_next_state.user_id FROM read_next_state JOIN user ON user.id = read_next_state.user_id
                    WHERE read_next_state.ranked_changes IS NOT read_next_state.changes
                    ORDER BY read_next_state.user_id LIMIT ?
                    """, arguments: [limit])
        }
    }

    static func ranking(of userID: Int64, _ db: Database) throws -> Ranking {
        let changes =
            try Int64.fetchOne(db, sql: "SELECT changes FROM read_next_state WHERE user_id = ?", arguments: [userID])
            ?? 0
        func books(_ condition: String, _ extra: StatementArguments = []) throws -> [Ranked] {
            try Row.fetchAll(
                db,
                sql: """
                    SELECT book.id, book.authors, book_embedding.vector FROM user_book
                    JOIN book ON book.id = user_book.book_id
                    JOIN book_embedding ON book_embedding.book_id = book.id
                    WHERE user_book.user_id = ? AND book_embedding.model = ? AND book_embedding.vector IS NOT NULL
                        AND \(condition)
                    ORDER BY book.id
                    """, arguments: [userID, TextEmbedder.modelID] + extra
            ).compactMap { row in
                guard let vector = MeaningVector.decode(row[2]) else { return nil }
                let authors = Book.strings(row[1])
                return Ranked(id: row[0], authors: Set(authors.map(SimilarBooks.nameKey)), vector: vector)
            }
        }
        let loved = try books(
            "user_book.shelf IN ('read', 'reading') AND (user_book.rating >= ? OR user_book.favourite = 1)",
            [Self.lovedRating])
        let wanted = loved.isEmpty ? [] : try books("user_book.shelf = 'want_to_read'")
        return Ranking(
            changes: changes, loved: loved.count, wanted: wanted.count, matches: Self.best(of: wanted, among: loved))
    }

    /// For each wanted book, the loved book it is most like (dot product of unit vectors, plus the same-author bonus),
    /// kept when that reaches `floor`. A block of wanted books at a time, so the scores matrix stays small.
    private static func best(of wanted: [Ranked], among loved: [Ranked]) -> [Ranking.Match] {
        guard !wanted.isEmpty, !loved.isEmpty else { return [] }
        let blas = try? OpenBLASUse()
        let lovedMatrix = blas == nil ? [] : loved.flatMap(\.vector)
        var lovedByAuthor: [String: [Int]] = [:]
        for (index, book) in loved.enumerated() {
            for author in book.authors { lovedByAuthor[author, default: []].append(index) }
        }
        var matches: [Ranking.Match] = []
        let blockSize = 256
        var scores = [Float](repeating: 0, count: blockSize * loved.count)
        for start in stride(from: 0, to: wanted.count, by: blockSize) {
            let block = wanted[start..<min(start + blockSize, wanted.count)]
            Self.likeness(of: block, to: loved, lovedMatrix: lovedMatrix, into: &scores, blas)
            for (row, candidate) in block.enumerated() {
                var sameAuthor = Set<Int>()
                for author in candidate.authors { sameAuthor.formUnion(lovedByAuthor[author] ?? []) }
                var best: (score: Float, index: Int) = (-.infinity, 0)
                for column in 0..<loved.count {
                    let score =
                        scores[row * loved.count + column] + (sameAuthor.contains(column) ? Self.sameAuthorBonus : 0)
                    if score > best.score { best = (score, column) }
                }
                if best.score >= Self.floor {
                    matches.append(.init(bookID: candidate.id, becauseBookID: loved[best.index].id, score: best.score))
                }
            }
        }
        withExtendedLifetime(blas) {}
        return matches
    }

    /// scores[row × loved.count + column] = block[row] · loved[column]: one `sgemm` through OpenBLAS when it is
    /// installed (`lovedMatrix` is the loved vectors end to end), else `MeaningVector.dot` pair by pair.
    private static func likeness(
        of block: ArraySlice<Ranked>, to loved: [Ranked], lovedMatrix: [Float], into scores: inout [Float],
        _ blas: OpenBLASUse?
    ) {
        guard blas != nil else {
            for (row, candidate) in block.enumerated() {
                for (column, book) in loved.enumerated() {
                    scores[row * loved.count + column] = MeaningVector.dot(candidate.vector, book.vector)
                }
            }
            return
        }
        let dimensions = Int32(TextEmbedder.dimensions)
        let blockMatrix = block.flatMap(\.vector)
        blockMatrix.withUnsafeBufferPointer { a in
            lovedMatrix.withUnsafeBufferPointer { b in
                scores.withUnsafeMutableBufferPointer { c in
                    shelfed_sgemm(
                        0, 1, Int32(block.count), Int32(loved.count), dimensions, 1, a.baseAddress, dimensions,
                        b.baseAddress, dimensions, 0, c.baseAddress, Int32(loved.count))
                }
            }
        }
    }

    /// Stores `ranking` as the person's, unless one made from a later snapshot is already stored, or the person is
    /// gone. The change count it was made from becomes the ranked count: a change since leaves it stale.
    static func store(_ ranking: Ranking, of userID: Int64, _ db: Database) throws {
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE id = ?", arguments: [userID]) == true else { return }
        let stored = try Int64.fetchOne(
            db, sql: "SELECT ranked_changes FROM read_next_state WHERE user_id = ?", arguments: [userID])
        if let stored, stored >= ranking.changes { return }
        try db.execute(sql: "DELETE FROM read_next_match WHERE user_id = ?", arguments: [userID])
        let insert = try db.cachedStatement(
            sql: "INSERT INTO read_next_match (user_id, book_id, because_book_id, score) VALUES (?, ?, ?, ?)")
        for match in ranking.matches {
            try insert.execute(arguments: [userID, match.bookID, match.becauseBookID, Double(match.score)])
        }
        try db.execute(
            sql: """
                INSERT INTO read_next_state (user_id, changes, ranked_changes, loved, wanted) VALUES (?1, ?2, ?2, ?3, ?4)
                ON CONFLICT (user_id) DO UPDATE SET ranked_changes = ?2, loved = ?3, wanted = ?4
                """, arguments: [userID, ranking.changes, ranking.loved, ranking.wanted])
    }
}
