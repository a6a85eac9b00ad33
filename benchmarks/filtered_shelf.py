"""A filtered shelf page on a release build (issue 24): a reader with 5,000 books — each in two of ten genres,
published 1900–2024, most rated — then the server's CPU per request for the Read shelf unfiltered, and filtered by
genre + years + rating (the issue's budget: within 1.5× the unfiltered page), each under wrk for 10 s.

    .venv/bin/python -u benchmarks/filtered_shelf.py

Needs the release binary (`make release`) and wrk. The books are written straight into the database of the running
server (WAL mode: it sees them at once; the catalog's triggers index their authors, words and genres). The server
runs without the model, so no background embedding is counted in its CPU.
"""
import datetime
import json
import random
import sqlite3

from bench_server import register, running_server
from journal import measure

BOOKS = 5_000
GENRES = ["Fantasy", "Science Fiction", "Mystery", "Romance", "History", "Biography", "Poetry", "Cooking",
          "Travel", "Philosophy"]
FILTER = "category=Fantasy&year_from=1990&year_to=2020&rating=3"


def seed(data_dir):
    rng = random.Random(24)
    database = sqlite3.connect(data_dir / "data" / "shelfed.sqlite", timeout=10)
    now = datetime.datetime.now().isoformat(sep=" ")
    for number in range(BOOKS):
        categories = json.dumps(rng.sample(GENRES, 2))
        year = rng.randint(1900, 2024)
        cursor = database.execute(
            """INSERT INTO book (title, authors, categories, published_date, source, created_at, updated_at,
                   owner_user_id) VALUES (?, ?, ?, ?, 'manual', ?, ?, 1)""",
            (f"Filtered book {number:04d}", json.dumps([f"Author {number % 97}"]), categories, str(year), now, now))
        book = cursor.lastrowid
        database.execute("INSERT INTO book_author (book_id, position, name) VALUES (?, 0, ?)",
                         (book, f"Author {number % 97}"))
        rating = None if number % 5 == 0 else rng.randint(1, 20) / 4
        added = (datetime.datetime.now() - datetime.timedelta(minutes=number)).isoformat(sep=" ")
        database.execute(
            """INSERT INTO user_book (user_id, book_id, shelf, favourite, rating, added_at, finished_at, updated_at)
               VALUES (1, ?, 'read', 0, ?, ?, ?, ?)""", (book, rating, added, f"{2000 + number % 25}-06-01", now))
    database.commit()
    matching = database.execute(
        """SELECT COUNT(*) FROM user_book JOIN book ON book.id = user_book.book_id
           WHERE book.id IN (SELECT book_id FROM book_category WHERE name = 'Fantasy')
             AND CAST(substr(book.published_date, 1, 4) AS INTEGER) BETWEEN 1990 AND 2020 AND rating >= 3""").fetchone()[0]
    database.close()
    return matching


def main():
    with running_server(SHELFED_MODEL_DIR="/nonexistent") as (server, base, data_dir):
        session, _ = register(base)
        matching = seed(data_dir)
        print(f"{BOOKS} books seeded; {matching} match the filter ({FILTER})")
        assert matching >= 60, "the filtered page should be a full page of 60"
        filtered = session.get(f"{base}/shelves/read?{FILTER}").text
        assert filtered.count('class="card"') == 60, "the filtered page should list 60 books"
        measure(server, session, f"{base}/shelves/read", "Read shelf, 5,000 books, unfiltered")
        measure(server, session, f"{base}/shelves/read?{FILTER}", "Read shelf filtered by genre + years + rating")
        measure(server, session, f"{base}/shelves/read?author=Author%2042", "Read shelf filtered by author")
        measure(server, session, f"{base}/genres", "the genres page")


if __name__ == "__main__":
    main()
