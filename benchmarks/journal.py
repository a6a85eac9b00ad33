"""The reading journal on a release build (issue 24): a reader with 3,000 journal entries — 2,400 over the last two
years on 30 finished books and 600 on one book still being read — then the server's CPU per request for that book's
page (its journal listed, the latest 100), the home page and the profile (pages per week and month and the streak
summed from the whole journal), each under wrk for 10 s.

    .venv/bin/python -u benchmarks/journal.py

Needs the release binary (`make release`) and wrk. The entries are written straight into the database of the
running server (WAL mode: the server sees them at once). The server runs without the model, so no background
embedding is counted in its CPU.
"""
import datetime
import re
import sqlite3
import subprocess

from bench_server import register, running_server
from shelf_page import cpu_seconds

ENTRIES = 3_000


def seed(data_dir, session, base, token):
    for number in range(30):
        session.post(base + "/books", data={"_csrf": token, "title": f"Journal book {number:02d}",
                                            "page_count": "400", "shelf": "reading"}, allow_redirects=False)
    database = sqlite3.connect(data_dir / "data" / "shelfed.sqlite", timeout=10)
    entries = [row[0] for row in database.execute("SELECT id FROM user_book ORDER BY id")]
    today = datetime.date.today()
    rows = []
    for number in range(ENTRIES):
        entry = entries[-1] if number >= ENTRIES - 600 else entries[number % 30]
        day = today - datetime.timedelta(days=(ENTRIES - number) % 730)
        rows.append((entry, day.isoformat(), (number * 7) % 400, None, f"note {number}",
                     datetime.datetime.now().isoformat(sep=" ")))
    database.executemany(
        "INSERT INTO journal_entry (user_book_id, read_on, page, percent, note, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        rows)
    database.commit()
    count = database.execute("SELECT COUNT(*) FROM journal_entry").fetchone()[0]
    book = database.execute("SELECT book_id FROM user_book WHERE id = ?", (entries[-1],)).fetchone()[0]
    database.close()
    return count, book


def measure(server, session, url, label):
    cookie = "; ".join(f"{k}={v}" for k, v in session.cookies.items())
    assert session.get(url).status_code == 200, f"{label} did not answer 200"
    before = cpu_seconds(server.pid)
    wrk = subprocess.run(["wrk", "-t1", "-c4", "-d10s", "--latency", "-H", f"Cookie: {cookie}", url],
                         capture_output=True, text=True, check=True)
    used = cpu_seconds(server.pid) - before
    done = int(re.search(r"(\d+) requests in", wrk.stdout).group(1))
    # The latency distribution's own lines ("     50%    3.07ms"), not a percentage in the thread table.
    p50 = re.search(r"^\s+50%\s+(\S+)", wrk.stdout, re.MULTILINE).group(1)
    p99 = re.search(r"^\s+99%\s+(\S+)", wrk.stdout, re.MULTILINE).group(1)
    print(f"{label}: server CPU {used / done * 1000:.2f} ms a request, p50 {p50}, p99 {p99} ({done} requests)")


def main():
    # Without the model: its background embedding of the new books would be counted in the server's CPU.
    with running_server(SHELFED_MODEL_DIR="/nonexistent") as (server, base, data_dir):
        session, token = register(base)
        session.post(base + "/books", data={"_csrf": token, "title": "Without a journal", "page_count": "400",
                                            "shelf": "reading"}, allow_redirects=False)
        measure(server, session, f"{base}/books/1", "baseline: book page, no journal")
        measure(server, session, f"{base}/profile", "baseline: profile, no journal")
        count, book = seed(data_dir, session, base, token)
        print(f"{count} journal entries seeded")
        page = session.get(f"{base}/books/{book}").text
        assert "The latest 100 of 600 entries." in page, "the book page should list the latest 100"
        measure(server, session, f"{base}/books/{book}", "book page with its journal")
        measure(server, session, f"{base}/", "home page, 31 books in progress")
        measure(server, session, f"{base}/profile", "profile with the journal's statistics")
        measure(server, session, f"{base}/profile/year/{datetime.date.today().year}", "this year in review")


if __name__ == "__main__":
    main()
