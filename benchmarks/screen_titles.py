"""Films beside books (issue 37): 5,000 books and 500 films in one library, then the server's CPU per request for a
shelf holding both (cards and the dense list), a film's page, and the Reader app's shelf counts, which subtract the
person's films from the kept counts. The same pages with books only come first, as the yardstick.

    .venv/bin/python -u benchmarks/screen_titles.py

Needs the release binary (`make release`) and wrk. Books and films are written straight into the running server's
database (WAL mode), as home_read_next.py does.
"""
import datetime
import json
import random
import re
import sqlite3
import subprocess

from bench_server import register, running_server
from journal import cpu_seconds, measure

BOOKS = 5_000
FILMS = 500


def seed(data_dir, kind, count, first_number, user=1):
    rng = random.Random(first_number)
    database = sqlite3.connect(data_dir / "data" / "shelfed.sqlite", timeout=10)
    now = datetime.datetime.now().isoformat(sep=" ")
    ids = []
    for number in range(first_number, first_number + count):
        book = database.execute(
            """INSERT INTO book (title, authors, categories, source, created_at, updated_at, owner_user_id, kind,
                   runtime_minutes, published_date)
               VALUES (?, ?, '[]', 'manual', ?, ?, ?, ?, ?, ?)""",
            (f"{'Film' if kind == 'movie' else 'Book'} {number:05d}", json.dumps([f"Maker {number % 300}"]), now, now,
             user, kind, 90 + number % 90 if kind == "movie" else None, str(1950 + number % 75))).lastrowid
        shelf = rng.choice(["read", "read", "want_to_read"])
        finished = f"2026-{1 + number % 11:02d}-{1 + number % 27:02d}" if shelf == "read" else None
        database.execute(
            """INSERT INTO user_book (user_id, book_id, shelf, favourite, rating, added_at, updated_at, finished_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
            (user, book, shelf, number % 9 == 0, rng.choice([None, 3.0, 4.0]), now, now, finished))
        ids.append(book)
    database.commit()
    database.close()
    return ids


def measure_api(server, base, key, path, label):
    """As `journal.measure`, with the app's key in the URL as the Reader app sends it."""
    url = f"{base}{path}?api_key={key['api_key']}&user_id={key['user_id']}"
    before = cpu_seconds(server.pid)
    wrk = subprocess.run(["wrk", "-t1", "-c4", "-d10s", url], capture_output=True, text=True, check=True)
    done = int(re.search(r"(\d+) requests in", wrk.stdout).group(1))
    print(f"{label}: server CPU {(cpu_seconds(server.pid) - before) / done * 1000:.2f} ms a request ({done} requests)")


def main():
    with running_server(SHELFED_MODEL_DIR="/nonexistent") as (server, base, data_dir):
        session, token = register(base)
        seed(data_dir, "book", BOOKS, 0)
        key = session.post(base + "/api/v1/sessions", json={"email": "bench@example.com",
                                                           "password": "benchmark password"}).json()
        measure_api(server, base, key, "/api/v1/shelves", "Reader /api/v1/shelves, books only")
        measure(server, session, base + "/shelves/read", f"Read shelf, {BOOKS} books")
        measure(server, session, base + "/shelves/read?view=list", f"Read shelf as a list, {BOOKS} books")
        films = seed(data_dir, "movie", FILMS, BOOKS)
        database = sqlite3.connect(data_dir / "data" / "shelfed.sqlite")
        plan = database.execute("""EXPLAIN QUERY PLAN
            SELECT user_book.shelf, COUNT(*), COALESCE(SUM(user_book.favourite != 0), 0)
            FROM book CROSS JOIN user_book ON user_book.book_id = book.id AND user_book.user_id = 1
            WHERE book.kind != 'book' GROUP BY user_book.shelf""").fetchall()
        database.close()
        print("the Reader counts' films:", "; ".join(row[-1] for row in plan))
        measure(server, session, base + "/shelves/read", f"Read shelf, {BOOKS} books and {FILMS} films")
        measure(server, session, base + "/shelves/read?view=list", f"Read shelf as a list, {BOOKS} books + {FILMS} films")
        measure(server, session, f"{base}/books/{films[10]}", "a film's page")
        measure_api(server, base, key, "/api/v1/shelves", f"Reader /api/v1/shelves, {FILMS} films subtracted")


if __name__ == "__main__":
    main()
