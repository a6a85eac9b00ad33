import GRDB

/// The queue of photos whose words tesseract reads (`PhotoTextReader`): the photo table itself, by `ocr_status`
/// (pending → reading → done or failed).
extension PhotoStore {
    /// Claims the oldest waiting photo in the same write that finds it, so two readers never read one photo.
    func claimPhotoToRead() async throws -> ClaimedPhoto? {
        try await db.write { db -> ClaimedPhoto? in
            try Row.fetchOne(
                db,
                sql: """
                    UPDATE photo SET ocr_status = 'reading'
                    WHERE id = (SELECT id FROM photo WHERE ocr_status = 'pending' ORDER BY id LIMIT 1)
                    RETURNING id, display_path
                    """
            ).map { ClaimedPhoto(id: $0["id"], path: $0["display_path"]) }
        }
    }

    /// Keeps what was read, only for a photo still being read: one edited or deleted meanwhile keeps what its owner
    /// did.
    func recordText(_ text: String?, status: PhotoText.Status, of photoID: Int64) async throws {
        try await db.write { db in
            try db.execute(
                sql: "UPDATE photo SET ocr_text = ?, ocr_status = ? WHERE id = ? AND ocr_status = 'reading'",
                arguments: [text, status.rawValue, photoID])
        }
    }

    /// Photos being read when the server stopped wait to be read again.
    func requeuePhotosBeingRead() async throws {
        try await db.write { db in
            try db.execute(sql: "UPDATE photo SET ocr_status = 'pending' WHERE ocr_status = 'reading'")
        }
    }
}
