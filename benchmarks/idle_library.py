"""An idle server with a large library (issue 35, finding 2): 11,000 books, each with a meaning vector, and the
model folder present, as after a big import has been read for meaning. After a minute at rest, the server's RSS and
the CPU ticks it spends over 30 s with nobody using it (budget: 30 MB, about one tick per 10 s). Then REAL_BOOKS more
books without vectors, which the server embeds with the model itself; once it has finished and rested (the model is
closed after a minute idle), the same two figures again.

    .venv/bin/python -u benchmarks/idle_library.py

Needs the release binary (`make release`). The vectors are random, written straight into the running server's
database, so no model time is counted; the server finds nothing left to embed.
"""
import os
import random
import sqlite3
import time

from bench_server import ROOT, register, rss_kib, running_server
from home_read_next import seed

BOOKS = 11_000
REAL_BOOKS = 600
REST = 60
WATCH = 30
WORDS = ("river winter letters island family war garden memory city secret journey music mother ship library storm "
         "village detective kingdom science recipe mountain friendship silence revolution machine ocean").split()


def cpu_ticks(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def main():
    with running_server(SHELFED_MODEL_DIR=str(ROOT / "models" / "all-MiniLM-L6-v2")) as (server, base, data_dir):
        session, _ = register(base)
        wanted, loved = seed(data_dir, BOOKS)
        print(f"{BOOKS} books with vectors: {wanted} on Want to read, {loved} loved")
        assert session.get(base + "/").status_code == 200
        assert session.get(base + "/shelves/read").status_code == 200
        watch(server, "idle after {REST} s with {BOOKS} vectors".format(REST=REST, BOOKS=BOOKS))
        add_books_to_embed(data_dir)
        waiting = lambda: sqlite3.connect(data_dir / "data" / "shelfed.sqlite").execute(
            "SELECT COUNT(*) FROM book WHERE id NOT IN (SELECT book_id FROM book_embedding)").fetchone()[0]
        started = time.monotonic()
        for _ in range(600):
            if waiting() == 0:
                break
            time.sleep(1)
        print(f"{REAL_BOOKS} books embedded by the server in {time.monotonic() - started:.0f} s")
        watch(server, f"idle after embedding them")


def watch(server, label):
    time.sleep(REST)
    before = cpu_ticks(server.pid)
    time.sleep(WATCH)
    ticks = cpu_ticks(server.pid) - before
    print(f"{label}: RSS {rss_kib(server.pid) / 1024:.1f} MiB, "
          f"{ticks} CPU ticks in {WATCH} s ({ticks * 10 / WATCH:.1f} per 10 s, {os.sysconf('SC_CLK_TCK')} a second)")


def add_books_to_embed(data_dir):
    rng = random.Random(7)
    database = sqlite3.connect(data_dir / "data" / "shelfed.sqlite", timeout=10)
    for number in range(REAL_BOOKS):
        description = " ".join(rng.choice(WORDS) for _ in range(60))
        book = database.execute(
            """INSERT INTO book (title, authors, categories, description, source, created_at, updated_at,
                   owner_user_id) VALUES (?, '["Someone"]', '[]', ?, 'manual', '2026-01-01', '2026-01-01', 1)""",
            (f"Real {number}", description)).lastrowid
        database.execute(
            """INSERT INTO user_book (user_id, book_id, shelf, favourite, added_at, updated_at)
               VALUES (1, ?, 'want_to_read', 0, '2026-01-01', '2026-01-01')""", (book,))
    database.commit()
    database.close()


if __name__ == "__main__":
    main()
