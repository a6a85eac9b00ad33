import Foundation
import Testing

@testable import ShelfedKit

/// The stored vectors' arithmetic (float16 bytes, 384 values): the eight-at-a-time dot product gives what
/// converting each value and multiplying gives, for every kind of float16 a vector can hold.
@Suite struct MeaningVectorTests {
    @Test func theFastDotProductEqualsTheValueByValueOne() throws {
        var generator = SystemRandomNumberGenerator()
        let dimensions = TextEmbedder.dimensions
        // Ordinary values, values too small for a normal float16 (subnormals), zeros of both signs, the largest.
        let kinds: [() -> Float] = [
            { Float.random(in: -1...1, using: &generator) },
            { Float.random(in: -6e-5...6e-5, using: &generator) },
            { Bool.random(using: &generator) ? 0 : -0.0 },
            { Bool.random(using: &generator) ? 65_504 : -65_504 },
        ]
        for round in 0..<40 {
            let stored = (0..<dimensions).map { _ in kinds[round % kinds.count]() }
            let mixed = (0..<dimensions).map { index in kinds[index % kinds.count]() }
            for vector in [stored, mixed] {
                let query = (0..<dimensions).map { _ in Float.random(in: -1...1, using: &generator) }
                let bytes = MeaningVector.encode(vector)
                let decoded = try #require(MeaningVector.decode(bytes))
                let expected = MeaningVector.dot(query, decoded)
                let fast = try #require(MeaningVector.dot(query, stored: bytes))
                // Added in another order: equal within float rounding of the terms' total size.
                let size = zip(query, decoded).reduce(Float(0)) { $0 + abs($1.0 * $1.1) }
                #expect(abs(fast - expected) <= 1e-6 + size * 1e-4, "round \(round)")
            }
        }
        // The decoded values themselves: each float16 bit pattern's own value.
        for bits in [UInt16(0x0001), 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x8000, 0x7BFF] {
            var one = [Float](repeating: 0, count: dimensions)
            one[5] = 1
            var data = Data(count: dimensions * 2)
            data.withUnsafeMutableBytes { $0.storeBytes(of: bits.littleEndian, toByteOffset: 10, as: UInt16.self) }
            #expect(MeaningVector.dot(one, stored: data) == Float(Float16(bitPattern: bits)), "\(bits)")
        }
        // Anything but 384 float16 values is no vector.
        #expect(MeaningVector.dot([Float](repeating: 1, count: dimensions), stored: Data(count: 10)) == nil)
        #expect(MeaningVector.dot([1, 2], stored: Data(count: dimensions * 2)) == nil)
    }
}

extension MeaningVectorTests {
    /// A person's vectors kept between searches are the database's: a new vector, a book off the shelves and a book
    /// added are seen at once; a shelf move keeps what was kept.
    @Test func keptVectorsFollowEveryChangeThatMattersAndNothingElse() async throws {
        let library = try ReadNextRankingTests.Library()
        defer { try? FileManager.default.removeItem(at: library.folder) }
        let memo = LibraryVectorsMemo(database: library.db, lifetime: .seconds(3_600))
        let store = EmbeddingStore(db: library.db, libraryVectors: memo)
        let query = ReadNextRankingTests.Library.vector([0: 1])
        func cosines() async throws -> [Int64: Float] {
            Dictionary(
                uniqueKeysWithValues: try await store.libraryCosines(
                    of: 1, to: query, model: TextEmbedder.modelID
                ).map { ($0.id, $0.cosine) })
        }
        func uncached() async throws -> [Int64: Float] {
            Dictionary(
                uniqueKeysWithValues: try await EmbeddingStore(db: library.db).libraryCosines(
                    of: 1, to: query, model: TextEmbedder.modelID
                ).map { ($0.id, $0.cosine) })
        }
        #expect(try await cosines().count == 4)
        #expect(try await cosines() == (try await uncached()))
        let key = LibraryVectorsKey(userID: 1, model: TextEmbedder.modelID)

        // A shelf move is no change: the vectors stay kept.
        let close = try #require(library.books["Close"])
        try await library.db.writer.write { db in
            try db.execute(sql: "UPDATE user_book SET shelf = 'reading' WHERE book_id = ?", arguments: [close])
        }
        #expect(memo.value(for: key, generation: memo.generation()) != nil)

        // A new book with a vector, a changed vector, a book off the shelves: each seen on the next search.
        let added = try library.add("Added", shelf: "want_to_read", vector: ReadNextRankingTests.Library.vector([0: 1]))
        #expect(try await cosines()[added] == 1)
        let unlike = try #require(library.books["Unlike"])
        try await library.db.writer.write { db in
            try db.execute(
                sql: "UPDATE book_embedding SET vector = ? WHERE book_id = ?",
                arguments: [MeaningVector.encode(ReadNextRankingTests.Library.vector([0: 0.6, 3: 0.8])), unlike])
        }
        #expect(abs((try await cosines()[unlike] ?? 0) - 0.6) < 0.01)
        try await library.db.writer.write { db in
            try db.execute(sql: "DELETE FROM user_book WHERE book_id = ?", arguments: [close])
        }
        let after = try await cosines()
        #expect(after[close] == nil && after.count == 4)
        #expect(after == (try await uncached()))

        // The search page's "still being read" line counts from the same kept read, and follows it.
        #expect(try await store.libraryProgress(of: 1, model: TextEmbedder.modelID) == (4, 4))
        _ = try library.add("Waiting", shelf: "want_to_read", vector: nil)
        #expect(try await store.libraryProgress(of: 1, model: TextEmbedder.modelID) == (4, 5))
    }
}
