"""Issue 11's backup benchmark, on a release build: a library of 5,000 books and 500 photos.

The 5,000 books are imported through the web flow (the made Goodreads export's shapes, as in imports.py). Ten
photos are uploaded through the photo form (so their rows, display images and thumbnails are the server's own);
the other 490 are copies of those rows and files, with each original padded to PHOTO_MB (a phone photo is 5-12 MB;
JPEG readers ignore bytes after the end-of-image marker, and a backup only copies and hashes them).

Measured, with the server running and serving a shelf page throughout:
1. `shelfed backup` (a separate process): wall time, its peak RSS, the zip's size; the shelf page's p99 meanwhile.
2. The same backup downloaded at /profile/backup (built inside the server): time and the server's RSS increase.
3. `shelfed restore` into an empty folder, with every check: wall time and peak RSS.
"""
import os
import pathlib
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid

from bench_server import BINARY, ROOT, register, rss_kib, running_server
from imports import describe, goodreads_file, run_import, shelf_latencies, upload

PHOTOS = 500
UPLOADED = 10
PHOTO_MB = 6
FIXTURES = ROOT / "Tests" / "Fixtures" / "images"


def add_photos(session, token, base, database, media):
    book_id, = database.execute("SELECT book_id FROM user_book ORDER BY id LIMIT 1").fetchone()
    for number in range(UPLOADED):
        image = FIXTURES / ("Landscape_1.jpg", "Landscape_6.jpg", "Portrait_1.jpg")[number % 3]
        with image.open("rb") as file:
            answer = session.post(base + f"/books/{book_id}/photos",
                                  data={"_csrf": token, "page_number": str(number + 1), "comment": f"Quote {number}"},
                                  files={"photo": (image.name, file, "image/jpeg")}, allow_redirects=False)
        assert answer.status_code == 303, answer.text[:300]
    columns = [row[1] for row in database.execute("PRAGMA table_info(photo)") if row[1] != "id"]
    uploaded = database.execute(f"SELECT {', '.join(columns)} FROM photo ORDER BY id").fetchall()
    padding = os.urandom(PHOTO_MB * 1_048_576)
    for number in range(PHOTOS - UPLOADED):
        row = dict(zip(columns, uploaded[number % UPLOADED]))
        for kind in ("original_path", "display_path", "thumb_path"):
            source = media / row[kind]
            target = pathlib.Path(row[kind]).parent / f"{uuid.uuid4().hex}{source.suffix}"
            data = source.read_bytes()
            if kind == "original_path":
                data += padding[: PHOTO_MB * 1_048_576 - len(data)]
                row["bytes"] = len(data)
            (media / target).write_bytes(data)
            row[kind] = str(target)
        database.execute(f"INSERT INTO photo ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                         [row[column] for column in columns])
    database.commit()


def timed_process(arguments, env):
    """Runs a command; returns (seconds, peak RSS in MiB, completed output)."""
    started = time.monotonic()
    process = subprocess.Popen(arguments, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.monotonic() - started
    output, errors = process.stdout.read(), process.stderr.read()
    assert os.waitstatus_to_exitcode(status) == 0, errors
    return elapsed, usage.ru_maxrss / 1024, output.strip()


def main():
    with tempfile.TemporaryDirectory() as scratch, running_server() as (server, base, data_dir):
        scratch = pathlib.Path(scratch)
        export = scratch / "goodreads_library_export.csv"
        goodreads_file(export, 5000)
        database = sqlite3.connect(str(data_dir / "data" / "shelfed.sqlite"), timeout=30)
        session, token = register(base)
        job_path, _, token = upload(session, token, base, export)
        run_import(session, token, base, job_path, database)
        add_photos(session, token, base, database, data_dir / "data" / "media")
        books, = database.execute("SELECT COUNT(*) FROM user_book").fetchone()
        photos, = database.execute("SELECT COUNT(*) FROM photo").fetchone()
        media_bytes = sum(f.stat().st_size for f in (data_dir / "data").rglob("*") if f.is_file())
        print(f"library: {books} books, {photos} photos, data folder {media_bytes / 1_048_576:.0f} MB")

        env = dict(os.environ, SHELFED_DATA_DIR=str(data_dir / "data"), SHELFED_RESOURCES_DIR=str(ROOT))
        idle = shelf_latencies(session, base, 200)
        during, done = [], threading.Event()

        def load_shelf():
            while not done.is_set():
                during.extend(shelf_latencies(session, base, 10))

        loader = threading.Thread(target=load_shelf)
        loader.start()
        zip_path = scratch / "backup.zip"
        seconds, peak, output = timed_process([str(BINARY), "backup", str(zip_path)], env)
        done.set()
        loader.join()
        during.sort()
        print(f"shelfed backup: {seconds:.1f} s, peak RSS {peak:.0f} MiB, zip {zip_path.stat().st_size / 1_048_576:.0f} MB")
        print(f"  {output}")
        print(f"shelf page idle: {describe(idle)}")
        print(f"shelf page during the backup ({len(during)} GETs): {describe(during)}")

        idle_rss = rss_kib(server.pid)
        peak_rss, sampling = [idle_rss], [True]

        def sample():
            while sampling[0]:
                peak_rss[0] = max(peak_rss[0], rss_kib(server.pid))
                time.sleep(0.01)

        sampler = threading.Thread(target=sample)
        sampler.start()
        started = time.monotonic()
        downloaded = 0
        with session.get(base + "/profile/backup", stream=True, timeout=600) as answer:
            assert answer.status_code == 200
            for chunk in answer.iter_content(1 << 20):
                downloaded += len(chunk)
        download_seconds = time.monotonic() - started
        sampling[0] = False
        sampler.join()
        print(f"download at /profile/backup: {download_seconds:.1f} s for {downloaded / 1_048_576:.0f} MB, server RSS "
              f"{idle_rss / 1024:.0f} MiB idle, peak {peak_rss[0] / 1024:.0f} MiB (+{(peak_rss[0] - idle_rss) / 1024:.0f} MiB)")

        restored = scratch / "restored"
        env = dict(os.environ, SHELFED_DATA_DIR=str(restored), SHELFED_RESOURCES_DIR=str(ROOT))
        seconds, peak, output = timed_process([str(BINARY), "restore", str(zip_path)], env)
        print(f"shelfed restore (checksums, integrity check, counts): {seconds:.1f} s, peak RSS {peak:.0f} MiB")
        print(f"  {output}")
        shutil.rmtree(restored, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
