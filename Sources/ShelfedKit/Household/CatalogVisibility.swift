import GRDB

/// Which rows of the shared catalog discovery may show a person (issue 35, DESIGN §15): a row is there because
/// someone in the house added it, so showing it tells what someone reads. Discovery — similar books, search by
/// meaning, "books the server knows", similar by ISBN — shows a row only when the viewer has it, or a member who
/// shares has it; a row typed or imported by hand only to its owner; and to a keyless caller, nothing.
///
/// "Found it in their own search" needs no rule here: those books come from the provider's answer itself. Counting
/// them would bring back the oracle the attacker used (search an ISBN, then ask whether the server knows it).
enum CatalogVisibility {
    /// SQL true when the `book` row in scope may be shown to `viewer`; bind `arguments(viewer)` where it stands.
    static let clause = """
        (? IS NOT NULL AND (book.owner_user_id IS NULL OR book.owner_user_id = ?) AND book.id IN (
            SELECT held.book_id FROM user_book AS held
            WHERE held.user_id IN (SELECT ? UNION ALL SELECT id FROM user WHERE shares_reading = 1)))
        """

    /// The same rule, checked row by row: for a query over a few given books (a book's neighbours, an author's
    /// books), where building the viewer's whole set first costs more than the rows (a 5,000-book shelf read three
    /// times a book page). The `+` keeps SQLite from reading the books by owner — all of them — instead of the few
    /// asked for. Bound with the same `arguments(viewer)`.
    static let rowClause = """
        (? IS NOT NULL AND (+book.owner_user_id IS NULL OR +book.owner_user_id = ?) AND EXISTS (
            SELECT 1 FROM user_book AS held WHERE held.book_id = book.id
                AND (held.user_id = ? OR held.user_id IN (SELECT id FROM user WHERE shares_reading = 1))))
        """

    static func arguments(_ viewer: Int64?) -> StatementArguments {
        [viewer, viewer, viewer]
    }
}
