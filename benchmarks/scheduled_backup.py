"""A scheduled backup under load (issue 26): a 5,000-book library with 500 phone photos (a 4 MB original, a 400 KB
display image and a 30 KB thumbnail each, 2.2 GB in all), the server's own backup due while wrk keeps the Read shelf
busy; the shelf page's p99 before and during, and how long the backup took (written, then read back to verify).
Then start-up time, as it is and with a migration pending (the database copied aside first).

    .venv/bin/python -u benchmarks/scheduled_backup.py

Needs the release binary (`make release`) and wrk. Photos are random bytes (a zip stores JPEGs uncompressed anyway).
"""
import datetime
import json
import os
import random
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time

import requests

from bench_server import BINARY, ROOT, free_port, register, running_server

BOOKS = 5_000
PHOTOS = 500
BACKUP_AFTER = 75  # seconds after start: time to seed and measure the quiet shelf first


def seed(data_dir):
    rng = random.Random(26)
    database = sqlite3.connect(data_dir / "data" / "shelfed.sqlite", timeout=10)
    now = datetime.datetime.now().isoformat(sep=" ")
    books = []
    for number in range(BOOKS):
        book = database.execute(
            """INSERT INTO book (title, authors, categories, source, created_at, updated_at, owner_user_id, page_count)
               VALUES (?, ?, '[]', 'manual', ?, ?, 1, ?)""",
            (f"Book {number:05d}", json.dumps([f"Author {number % 300}"]), now, now, rng.randint(90, 900))).lastrowid
        books.append(book)
        finished = (datetime.date(2020, 1, 1) + datetime.timedelta(days=rng.randint(0, 2000))).isoformat()
        database.execute(
            """INSERT INTO user_book (user_id, book_id, shelf, favourite, added_at, finished_at, updated_at)
               VALUES (1, ?, 'read', 0, ?, ?, ?)""", (book, now, finished, now))
    media = data_dir / "data" / "media" / "1"
    media.mkdir(parents=True, exist_ok=True)
    for number in range(PHOTOS):
        names = {}
        for kind, size in (("original", 4_000_000), ("display", 400_000), ("thumb", 30_000)):
            name = f"1/{number:04d}-{kind}.jpg"
            (data_dir / "data" / "media" / name).write_bytes(os.urandom(size))
            names[kind] = name
        database.execute(
            """INSERT INTO photo (user_id, book_id, original_path, display_path, thumb_path, width, height, bytes,
                   content_type, created_at) VALUES (1, ?, ?, ?, ?, 1600, 1200, 4000000, 'image/jpeg', ?)""",
            (books[number], names["original"], names["display"], names["thumb"], now))
    database.commit()
    database.close()


def wrk(session, url, seconds):
    cookie = "; ".join(f"{k}={v}" for k, v in session.cookies.items())
    output = subprocess.run(["wrk", "-t1", "-c4", f"-d{seconds}s", "--latency", "-H", f"Cookie: {cookie}", url],
                            capture_output=True, text=True, check=True).stdout
    p50 = re.search(r"^\s+50%\s+(\S+)", output, re.MULTILINE).group(1)
    p99 = re.search(r"^\s+99%\s+(\S+)", output, re.MULTILINE).group(1)
    done = re.search(r"(\d+) requests in", output).group(1)
    return f"p50 {p50}, p99 {p99} ({done} requests)"


def backup_run(data_dir):
    database = sqlite3.connect(data_dir / "data" / "shelfed.sqlite", timeout=10)
    row = database.execute("SELECT started_at, finished_at, bytes, error FROM backup_run ORDER BY id DESC LIMIT 1").fetchone()
    database.close()
    return row


def started_in(data_dir, **settings):
    """Seconds from exec to the first answer, for the server on an existing data folder."""
    port = free_port()
    env = dict(os.environ, SHELFED_PORT=str(port), SHELFED_DATA_DIR=str(data_dir), SHELFED_RESOURCES_DIR=str(ROOT),
               SHELFED_LOG_LEVEL="warning", SHELFED_MODEL_DIR="/nonexistent", SHELFED_BACKUP_EVERY="off", **settings)
    began = time.monotonic()
    server = subprocess.Popen([str(BINARY), "serve"], env=env, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                requests.get(f"http://127.0.0.1:{port}/health", timeout=1)
                return time.monotonic() - began
            except requests.ConnectionError:
                time.sleep(0.02)
        raise RuntimeError("the server did not start")
    finally:
        server.terminate()
        server.wait(timeout=30)


def main():
    with running_server(SHELFED_MODEL_DIR="/nonexistent", SHELFED_BACKUP_EVERY=f"{BACKUP_AFTER}s",
                        SHELFED_BACKUP_KEEP="1") as (server, base, data_dir):
        began = time.monotonic()
        session, _ = register(base)
        seed(data_dir)
        print(f"{BOOKS} books and {PHOTOS} photos seeded in {time.monotonic() - began:.0f} s")
        url = base + "/shelves/read"
        print("Read shelf, no backup running:", wrk(session, url, 10))
        wait = BACKUP_AFTER - 2 - (time.monotonic() - began)
        assert wait > 0, "seeding took longer than the backup's delay: raise BACKUP_AFTER"
        time.sleep(wait)
        print("Read shelf, while the backup runs:", wrk(session, url, 25))
        for _ in range(600):
            row = backup_run(data_dir)
            if row:
                break
            time.sleep(1)
        started, finished, size, error = row
        duration = (datetime.datetime.fromisoformat(finished) - datetime.datetime.fromisoformat(started)).total_seconds()
        print(f"backup: {duration:.1f} s to write and verify {size / 1_048_576:.0f} MB" + (f", FAILED: {error}" if error else ""))
        # Start-up, on a copy of this data folder (the running server keeps its own).
        copy = tempfile.mkdtemp(prefix="shelfed-start-")
        shutil.copy(data_dir / "data" / "shelfed.sqlite", copy)
    try:
        print(f"start-up, schema current: {started_in(copy):.2f} s")
        database = sqlite3.connect(os.path.join(copy, "shelfed.sqlite"))
        last = database.execute("SELECT identifier FROM grdb_migrations ORDER BY rowid DESC LIMIT 1").fetchone()[0]
        database.execute("DELETE FROM grdb_migrations WHERE identifier = ?", (last,))
        database.execute("DROP TABLE backup_run")
        database.commit()
        database.close()
        print(f"start-up with '{last}' pending (database copied aside first): {started_in(copy):.2f} s")
        assert any(name.startswith("pre-migration-") for name in os.listdir(os.path.join(copy, "backups")))
    finally:
        shutil.rmtree(copy, ignore_errors=True)


if __name__ == "__main__":
    main()
