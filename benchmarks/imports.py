"""Issue 11's import budgets, on a release build:

1. 5,000 Goodreads rows (the made export's 358 rows repeated with new titles and ids, so every row is a new book)
   imported without enrichment: the runner's time from the job's start to its finish (from the database), and the
   server's peak RSS increase over its idle RSS while the file is uploaded, staged and imported (sampled from /proc
   every 5 ms). Budgets: 2 s and 30 MB.
2. The shelf page's latency while that import runs, against idle: 200 GETs of /shelves/want-to-read on one
   keep-alive connection each time.
"""
import csv
import pathlib
import re
import sqlite3
import statistics
import sys
import tempfile
import threading
import time

import requests

from bench_server import ROOT, register, rss_kib, running_server

MADE_EXPORT = ROOT / "Tests" / "Fixtures" / "imports" / "goodreads_library_export.csv"
ROWS = 5000


def goodreads_file(path, rows_wanted):
    with MADE_EXPORT.open(encoding="utf-8-sig", newline="") as source:
        reader = csv.DictReader(source)
        header = reader.fieldnames
        rows = list(reader)
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=header)
        writer.writeheader()
        for number in range(rows_wanted):
            row = dict(rows[number % len(rows)])
            copy = number // len(rows)
            row["Book Id"] = f"{copy}{row['Book Id']}"
            row["Title"] = f"{row['Title']} — copy {copy}" if copy else row["Title"]
            if copy:
                row["ISBN"] = row["ISBN13"] = '=""'
            writer.writerow(row)


def shelf_latencies(session, base, count=200):
    times = []
    for _ in range(count):
        started = time.perf_counter()
        answer = session.get(base + "/shelves/want-to-read")
        times.append(time.perf_counter() - started)
        assert answer.status_code == 200
    times.sort()
    return times


def describe(times):
    return (f"p50 {statistics.median(times) * 1000:.1f} ms, p99 {times[int(len(times) * 0.99) - 1] * 1000:.1f} ms, "
            f"max {times[-1] * 1000:.1f} ms")


def second_user(base):
    session = requests.Session()
    session.get(base + "/register")
    answer = session.post(base + "/register", data={"_csrf": session.cookies["shelfed_csrf"], "username": "bench2",
                                                    "display_name": "Bench Two", "email": "bench2@example.com",
                                                    "password": "benchmark password"})
    return session, re.search(r'name="_csrf" value="([0-9a-f]{64})"', answer.text).group(1)


def upload(session, token, base, export):
    started = time.monotonic()
    with export.open("rb") as file:
        answer = session.post(base + "/import", data={"_csrf": token},
                              files={"file": ("goodreads_library_export.csv", file, "text/csv")}, allow_redirects=False)
    assert answer.status_code == 303, answer.text[:500]
    job_path = answer.headers["Location"]
    preview = session.get(base + job_path)
    assert f"{ROWS} books to import" in preview.text, re.findall(r"\d+ books? to import", preview.text)
    return job_path, time.monotonic() - started, re.search(r'name="_csrf" value="([0-9a-f]{64})"', preview.text).group(1)


def run_import(session, token, base, job_path, database):
    session.post(base + job_path + "/confirm", data={"_csrf": token, "existing": "update"}, allow_redirects=False)
    job_id = job_path.rsplit("/", 1)[1]
    while True:
        status, = database.execute("SELECT status FROM import_job WHERE id = ?", (job_id,)).fetchone()
        if status in ("completed", "failed", "canceled"):
            break
        time.sleep(0.01)
    status, created, started_at, finished_at = database.execute(
        "SELECT status, created, started_at, finished_at FROM import_job WHERE id = ?", (job_id,)).fetchone()
    assert status == "completed" and created == ROWS, (status, created)

    def seconds(text):
        return time.mktime(time.strptime(text[:19], "%Y-%m-%d %H:%M:%S")) + float("0" + text[19:23])

    return seconds(finished_at) - seconds(started_at)


def main():
    with tempfile.TemporaryDirectory() as scratch, running_server() as (server, base, data_dir):
        export = pathlib.Path(scratch) / "goodreads_library_export.csv"
        goodreads_file(export, ROWS)
        print(f"{ROWS} rows, {export.stat().st_size / 1_048_576:.1f} MB")
        database = sqlite3.connect(str(data_dir / "data" / "shelfed.sqlite"))
        session, token = register(base)

        idle_rss = rss_kib(server.pid)
        peak = [idle_rss]
        sampling = [True]

        def sample():
            while sampling[0]:
                peak[0] = max(peak[0], rss_kib(server.pid))
                time.sleep(0.005)

        sampler = threading.Thread(target=sample)
        sampler.start()
        job_path, staged, token = upload(session, token, base, export)
        print(f"upload + staging (every row read and stored for the preview): {staged:.2f} s")
        alone = run_import(session, token, base, job_path, database)
        sampling[0] = False
        sampler.join()
        print(f"import of {ROWS} new books, nothing else running (runner, start to finish): {alone:.2f} s")
        print(f"idle RSS {idle_rss / 1024:.1f} MiB, peak during upload and import {peak[0] / 1024:.1f} MiB "
              f"(+{(peak[0] - idle_rss) / 1024:.1f} MiB)")

        # A second person imports the same file while the first keeps reloading a shelf page.
        other, other_token = second_user(base)
        job_path, _, other_token = upload(other, other_token, base, export)
        idle = shelf_latencies(session, base, 200)
        during = []
        done = threading.Event()

        def load_shelf():
            while not done.is_set():
                during.extend(shelf_latencies(session, base, 10))

        loader = threading.Thread(target=load_shelf)
        loader.start()
        busy = run_import(other, other_token, base, job_path, database)
        done.set()
        loader.join()
        idle.sort()
        during.sort()
        print(f"the same import by a second person while the first reloads a shelf page: {busy:.2f} s")
        print(f"/shelves/want-to-read (first page of 5,000 books) idle: {describe(idle)}")
        print(f"/shelves/want-to-read during that import ({len(during)} GETs): {describe(during)}")


if __name__ == "__main__":
    sys.exit(main())
