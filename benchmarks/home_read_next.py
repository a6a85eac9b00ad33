"""The home page with "Read next" on a large library (issue 35, finding 9): one reader with BOOKS books, a fifth of
them loved (rated 4+) and a third on Want to read, three in progress, every book with a meaning vector, then the server's
CPU per home page under wrk, next to the shelf page as the yardstick.

    .venv/bin/python -u benchmarks/home_read_next.py            # 632 and 5,000 books; shelf views too

Needs the release binary (`make release`) and wrk. The vectors are random unit vectors written straight into the
running server's database (WAL mode), so no model time is counted; the server runs with the model folder so that
Read next is on, and finds nothing left to embed.
"""
import datetime
import json
import random
import sqlite3
import struct
import time

from bench_server import ROOT, register, running_server
from journal import measure

DIMENSIONS = 384


def unit_vector(rng):
    values = [rng.gauss(0, 1) for _ in range(DIMENSIONS)]
    norm = sum(value * value for value in values) ** 0.5
    return struct.pack(f"<{DIMENSIONS}e", *(value / norm for value in values))


def seed(data_dir, books, user=1):
    rng = random.Random(books)
    database = sqlite3.connect(data_dir / "data" / "shelfed.sqlite", timeout=10)
    now = datetime.datetime.now().isoformat(sep=" ")
    for number in range(books):
        book = database.execute(
            """INSERT INTO book (title, authors, categories, source, created_at, updated_at, owner_user_id)
               VALUES (?, ?, '[]', 'manual', ?, ?, ?)""",
            (f"Book {number:05d}", json.dumps([f"Author {number % 300}"]), now, now, user)).lastrowid
        # Three books in progress, as a reader has; the rest read or waiting.
        shelf = rng.choice(["read", "read", "want_to_read"]) if number >= 3 else "reading"
        rating = rng.choice([None, 3.0, 4.0, 4.0, 5.0]) if shelf == "read" else None
        database.execute(
            """INSERT INTO user_book (user_id, book_id, shelf, favourite, rating, added_at, updated_at)
               VALUES (?, ?, ?, 0, ?, ?, ?)""", (user, book, shelf, rating, now, now))
        database.execute(
            "INSERT INTO book_embedding (book_id, model, vector, embedded_at) VALUES (?, 'all-MiniLM-L6-v2', ?, ?)",
            (book, unit_vector(rng), now))
    database.commit()
    counts = database.execute(
        """SELECT SUM(shelf = 'want_to_read'), SUM(rating >= 4) FROM user_book WHERE user_id = ?""", (user,)).fetchone()
    database.close()
    return counts


def wait_for_neighbours(data_dir, books):
    """Until the server has found every book's neighbours (its background pass), at most a minute; says how long."""
    database = sqlite3.connect(data_dir / "data" / "shelfed.sqlite", timeout=10)
    started = time.monotonic()
    try:
        for _ in range(600):
            pending, = database.execute("SELECT COUNT(*) FROM book_neighbours_pending").fetchone()
            if pending == 0:
                print(f"{books} books: neighbours found in the background in {time.monotonic() - started:.1f} s")
                return
            time.sleep(0.1)
        raise RuntimeError(f"{pending} books still wait for their neighbours after a minute")
    finally:
        database.close()


def main():
    for books in (632, 5_000):
        with running_server(SHELFED_MODEL_DIR=str(ROOT / "models" / "all-MiniLM-L6-v2")) as (server, base, data_dir):
            session, token = register(base)
            wanted, loved = seed(data_dir, books)
            # A rating through the web form, as a person makes one: the change Read next must follow.
            session.post(f"{base}/books/4/review", data={"_csrf": token, "rating": "5", "review": ""}, allow_redirects=False)
            home = session.get(base + "/").text
            assert "Because you loved" in home, "the home page should suggest what to read next"
            print(f"{books} books: {wanted} on Want to read, {loved} loved")
            measure(server, session, base + "/", f"home page with Read next, {books} books")
            measure(server, session, base + "/shelves/want-to-read", f"shelf page, {books} books")
            # Issue 36's shelf views: the dense list (budget 0.4 ms for 60 rows) and the cover grid.
            measure(server, session, base + "/shelves/want-to-read?view=list", f"shelf as a list, {books} books")
            measure(server, session, base + "/shelves/want-to-read?view=grid", f"shelf as covers, {books} books")
            # More like this: each book's nearest books are found in the background when vectors change, and the
            # page reads the stored list (issue 36's budget: 1.5 ms).
            wait_for_neighbours(data_dir, books)
            assert "More like this" in session.get(base + "/books/10").text
            measure(server, session, base + "/books/10", f"book page with More like this, {books} books")


if __name__ == "__main__":
    main()
