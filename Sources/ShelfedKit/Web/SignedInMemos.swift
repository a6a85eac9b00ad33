import Foundation
import GRDB

/// What every signed-in page reads before its own work — the session, the signed-in person, the count of what waits
/// for them — kept between requests (`CommitMemo`) until a commit touches it (issue 36: these three reads and the
/// session's JSON were most of what a signed-in page pays before its own work). A page's photos and a reloaded page
/// then read none of them again.
///
/// A change made outside this server (the command line's `reset-password` signs an account out) is seen within
/// `AppConfig.memoLifetime`, ten seconds, much shorter than film night's minute: these answers decide who is signed in.
struct SignedInMemos: Sendable {
    let sessions: CommitMemo<String, SQLitePersistDriver.Kept>
    let users: CommitMemo<Int64, User?>
    let waiting: CommitMemo<Int64, Int>

    init(database: AppDatabase, lifetime: Duration) {
        // A household's devices; past this the oldest answer is read again.
        sessions = CommitMemo(database: database, tracking: [Table("session")], capacity: 64, lifetime: lifetime)
        users = CommitMemo(database: database, tracking: [Table("user")], capacity: 32, lifetime: lifetime)
        // Every table `ForYouStore.countSQL` reads.
        waiting = CommitMemo(
            database: database,
            tracking: [
                Table("borrow_request"), Table("recommendation"), Table("house_challenge"), Table("watched_together"),
                Table("user").select(Column("id"), Column("shares_reading"), Column("for_you_seen_at")),
                Table("user_book").select(Column("id"), Column("user_id")),
            ],
            capacity: 32, lifetime: lifetime)
    }

    /// Lets go of what is past its lifetime (`CommitMemo.dropExpired`); whether anything was.
    func dropExpired() -> Bool {
        [sessions.dropExpired(), users.dropExpired(), waiting.dropExpired()].contains(true)
    }
}
