import Foundation
import GRDB

/// A value that a change may leave alone, clear or set (JSON `PATCH` bodies tell absent from `null`).
enum Patch<Value: Sendable>: Sendable {
    case keep
    case set(Value?)

    func applied(to current: Value?) -> Value? {
        switch self {
        case .keep: current
        case .set(let value): value
        }
    }
}

/// Changes to one user's entry for a book, checked before anything is written: every field optional.
struct EntryChange: Sendable {
    var shelf: Shelf?
    var favourite: Bool?
    var started: Patch<String> = .keep
    var finished: Patch<String> = .keep
    var rating: Patch<Double> = .keep
    var review: Patch<String> = .keep
    var privateNotes: Patch<String> = .keep
    var reviewShared: Bool?

    static let maxReviewLength = CatalogLimits.review

    /// What is wrong with this change, field by field, given `result`, the entry as it would be after it;
    /// empty when it may be written.
    func problems(after result: UserBook) -> FieldErrors {
        var errors = FieldErrors()
        let (started, finished) = (result.startedAt, result.finishedAt)
        if case .set(let value?) = self.started, !CalendarDate.isValidDay(value) {
            errors["started_at"] = localized("Use a date like 2024-03-17 for started_at.")
        }
        if case .set(let value?) = self.finished, !CalendarDate.isValidDay(value) {
            errors["finished_at"] = localized("Use a date like 2024-03-17 for finished_at.")
        }
        if errors.isEmpty, let started, let finished, finished < started {
            errors["finished_at"] = localized("The finish date is before the start date.")
        }
        if case .set(let value?) = rating, !Self.isValidRating(value) {
            errors["rating"] = localized("A rating is 0.25 to 5 in steps of 0.25.")
        }
        if case .set(let value?) = review {
            if value.count > Self.maxReviewLength {
                errors["comments"] = localized(
                    "Comments can be at most {{max}} characters.", ["max": String(Self.maxReviewLength)])
            } else if NewBookForm.hasControlCharacters(value, allowingLineBreaks: true) {
                errors["comments"] = localized("Comments cannot contain control characters.")
            }
        }
        if case .set(let value?) = privateNotes {
            if value.count > Self.maxReviewLength {
                errors["private_notes"] = localized(
                    "Notes can be at most {{max}} characters.", ["max": String(Self.maxReviewLength)])
            } else if NewBookForm.hasControlCharacters(value, allowingLineBreaks: true) {
                errors["private_notes"] = localized("Notes cannot contain control characters.")
            }
        }
        return errors
    }

    /// DESIGN §13: 0.25–5 in 0.25 steps.
    static func isValidRating(_ value: Double) -> Bool {
        value.isFinite && value >= 0.25 && value <= 5 && (value * 4).rounded() == value * 4
    }

    /// Applies the change; a move first (it may set today's dates, keeping any it replaces as an earlier read),
    /// then any dates given explicitly.
    func apply(to entry: inout UserBook, today: String, now: Date, _ db: Database) throws {
        if let shelf { try entry.move(to: shelf, today: today, now: now, db) }
        if let favourite { entry.favourite = favourite }
        entry.startedAt = started.applied(to: entry.startedAt)
        entry.finishedAt = finished.applied(to: entry.finishedAt)
        entry.rating = rating.applied(to: entry.rating)
        entry.review = review.applied(to: entry.review).flatMap { $0.isEmpty ? nil : $0 }
        entry.privateNotes = privateNotes.applied(to: entry.privateNotes).flatMap { $0.isEmpty ? nil : $0 }
        if let reviewShared { entry.reviewShared = reviewShared }
    }
}

extension LibraryStore {
    /// Checks and applies `change` to the user's entry for `bookID` in one transaction. Nil when the user does not
    /// have the book; otherwise the problems found (nothing written unless there are none).
    func apply(_ change: EntryChange, bookID: Int64, for userID: Int64, now: Date, today: String) async throws
        -> FieldErrors?
    {
        try await db.write { db in
            guard
                var entry = try Self.request(of: userID, filter: .all).filter(Column("book_id") == bookID).fetchOne(db)
            else { return nil }
            var problems = FieldErrors()
            // Nothing is written for a refused change, not even the read a move would have kept.
            try db.inSavepoint {
                try change.apply(to: &entry, today: today, now: now, db)
                problems = change.problems(after: entry)
                return problems.isEmpty ? .commit : .rollback
            }
            guard problems.isEmpty else { return problems }
            entry.updatedAt = now
            try entry.update(db)
            return problems
        }
    }
}
