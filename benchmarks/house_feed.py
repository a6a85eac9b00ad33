"""The household's pages on a release build (issue 25): six members who share, 2,000 books each and a year of
reading (starts, finishes, progress entries), then the server's CPU per request for the home page with the house
feed (budget 2 ms), and for a book page that five other members have ("In the house" adds at most 0.3 ms: compared
with the same page before anyone shares), each under wrk for 10 s.

    .venv/bin/python -u benchmarks/house_feed.py

Needs the release binary (`make release`) and wrk. Rows are written straight into the running server's database
(WAL mode: it sees them at once). The server runs without the model, so no background embedding is counted.
"""
import datetime
import json
import random
import sqlite3

from bench_server import register, running_server
from journal import measure

MEMBERS = 6
BOOKS = 2_000
SHARED_ISBN = "9780140449136"


def seed(data_dir):
    rng = random.Random(25)
    database = sqlite3.connect(data_dir / "data" / "shelfed.sqlite", timeout=10)
    now = datetime.datetime.now().isoformat(sep=" ")
    start = datetime.date.today() - datetime.timedelta(days=365)
    viewer_book = None
    for member in range(1, MEMBERS + 1):
        if member > 1:
            database.execute(
                """INSERT INTO user (username, email, display_name, password_hash, created_at, shares_reading)
                   VALUES (?, ?, ?, 'x', ?, 1)""", (f"member{member}", f"m{member}@example.com", f"Member {member}", now))
        user = member
        database.execute("UPDATE user SET shares_reading = 1 WHERE id = ?", (user,))
        for number in range(BOOKS):
            isbn = SHARED_ISBN if number == 0 else None
            cursor = database.execute(
                """INSERT INTO book (title, authors, categories, isbn13, source, created_at, updated_at, owner_user_id)
                   VALUES (?, ?, '[]', ?, 'manual', ?, ?, ?)""",
                (f"Book {member}-{number:04d}", json.dumps([f"Author {number % 50}"]), isbn, now, now, user))
            book = cursor.lastrowid
            if member == 1 and number == 0:
                viewer_book = book
            day = start + datetime.timedelta(days=rng.randint(0, 364))
            # A few books in progress each, as a reader has; the rest read or waiting.
            shelf = "reading" if number >= BOOKS - 3 else rng.choice(["read", "read", "read", "want_to_read"])
            started = day.isoformat() if shelf != "want_to_read" else None
            finished = (day + datetime.timedelta(days=rng.randint(3, 30))).isoformat() if shelf == "read" else None
            entry = database.execute(
                """INSERT INTO user_book (user_id, book_id, shelf, favourite, rating, added_at, started_at, finished_at,
                       updated_at, owned) VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?)""",
                (user, book, shelf, rng.choice([None, 3.0, 4.0, 5.0]) if finished else None, now, started, finished,
                 now, rng.random() < 0.4)).lastrowid
            if started:
                for progress in range(rng.randint(0, 4)):
                    database.execute(
                        """INSERT INTO journal_entry (user_book_id, read_on, page, created_at)
                           VALUES (?, ?, ?, ?)""",
                        (entry, (day + datetime.timedelta(days=progress + 1)).isoformat(), 20 * (progress + 1), now))
    database.commit()
    events = database.execute("SELECT COUNT(*) FROM journal_entry").fetchone()[0]
    database.close()
    return viewer_book, events


def main():
    with running_server(SHELFED_MODEL_DIR="/nonexistent") as (server, base, data_dir):
        session, _ = register(base)
        viewer_book, events = seed(data_dir)
        print(f"{MEMBERS} sharing members x {BOOKS} books seeded, {events} progress entries")
        home = session.get(base + "/").text
        assert home.count("<li><time") == 8, "the home page should show eight house items"
        page = session.get(f"{base}/books/{viewer_book}").text
        # Their names link to their housemate pages (issue 36).
        assert page.count('<li><strong><a href="/house/members/') == MEMBERS - 1, \
            "the other five members should be In the house"
        measure(server, session, base + "/", "home page with the house feed")
        measure(server, session, base + "/house/feed", "the house feed page")
        measure(server, session, base + "/house", "the house library page")
        measure(server, session, f"{base}/books/{viewer_book}", "book page with In the house (5 members)")
        database = sqlite3.connect(data_dir / "data" / "shelfed.sqlite", timeout=10)
        database.execute("UPDATE user SET shares_reading = 0")
        database.commit()
        database.close()
        measure(server, session, f"{base}/books/{viewer_book}", "the same book page, nobody sharing")
        measure(server, session, base + "/", "home page, nobody sharing")


if __name__ == "__main__":
    main()
