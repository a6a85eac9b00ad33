"""`kill -9` in the middle of each kind of background work, then a restart (issue 21): the work resumes or is tried
again and finishes with the right result and no duplicate. File imports have their own test in test_imports.py.

The fake book services answer slowly here (every lookup and every Gemini call waits), so the server is caught with
work in flight; the database is read directly to see exactly where it was stopped."""
import sqlite3
import time

import pytest
import requests

import capture_images as images
from conftest import ROOT, Reader, Server
from fake_books import FakeBooks, Handler

SHELF_PHOTO = ROOT / "Tests" / "Fixtures" / "images" / "Landscape_1.jpg"
SLOW = 0.4  # seconds each fake answer takes


class SlowHandler(Handler):
    def do_GET(self):
        time.sleep(SLOW)
        super().do_GET()

    def do_POST(self):
        time.sleep(SLOW * 5)  # a Gemini call takes seconds
        super().do_POST()


@pytest.fixture(scope="module")
def slow_books():
    fake = FakeBooks()
    fake.RequestHandlerClass = SlowHandler
    fake.start()
    yield fake
    fake.shutdown()


def isbn13(serial):
    """A valid ISBN-13 nobody knows: 978-0-00 then `serial`, with its check digit."""
    body = f"97800{serial:07d}"
    total = sum(int(digit) * (1 if index % 2 == 0 else 3) for index, digit in enumerate(body))
    return body + str((10 - total % 10) % 10)


def value(server, sql, *arguments):
    with sqlite3.connect(str(server.data_dir / "data" / "shelfed.sqlite"), timeout=10) as database:
        return database.execute(sql, arguments).fetchone()


def wait_for(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"{what}: not within {seconds} s")


def api_session(server, username):
    Reader(server.base, username)
    answer = requests.post(server.base + "/api/v1/sessions",
                           json={"email": username, "password": "correct horse battery"}, timeout=10)
    assert answer.status_code in (200, 201), answer.text
    api = requests.Session()
    api.headers["Authorization"] = "Bearer " + answer.json()["api_key"]
    return api


def test_kill_9_mid_batch_enrich_then_restart_finishes_each_barcode_once(slow_books):
    server = Server(slow_books)
    try:
        api = api_session(server, "scanner")
        # Twelve barcodes: one the fake Google Books knows, ten valid ISBNs nobody knows, and one that is no ISBN.
        barcodes = ["9780140446043"] + [isbn13(1000 + n) for n in range(10)] + ["12345"]
        answer = api.post(server.base + "/api/batch-enrich", json={"barcodes": barcodes}, timeout=10)
        assert answer.status_code == 202, answer.text
        job = answer.json()["data"]["jobId"]
        stopped = wait_for(lambda: (row := value(server, "SELECT status, processed FROM import_job WHERE id = ?", job))
                           and 0 < row[1] < len(barcodes) and row, 60, "a few barcodes looked up")
        server.kill()

        server = Server(slow_books, data_dir=server.data_dir)
        done = wait_for(lambda: (row := value(server, "SELECT status, processed, created, skipped, failed FROM "
                                              "import_job WHERE id = ?", job)) and row[0] == "completed" and row,
                        90, "the batch after the restart")
        assert done[1] == len(barcodes), (stopped, done)
        pending, = value(server, "SELECT COUNT(*) FROM import_row WHERE job_id = ? AND outcome = 'pending'", job)
        entries, = value(server, "SELECT COUNT(*) FROM user_book")
        distinct, = value(server, "SELECT COUNT(DISTINCT book_id) FROM user_book")
        assert pending == 0 and entries == distinct, (pending, entries, distinct)
        # The known book is on the shelf once, whether it was added before the kill or after it.
        assert done[2] + done[3] == 1 and entries == 1, done
        print(f"killed after {stopped[1]} of {len(barcodes)} barcodes; after the restart {done}")
    finally:
        server.stop()


def test_kill_9_mid_shelf_scan_then_restart_reads_the_shelf(slow_books):
    server = Server(slow_books)
    try:
        reader = Reader(server.base, "shelver")
        reader.get("/scan/shelf")
        answer = reader.session.post(server.base + "/scan/shelf", data={"_csrf": reader.token},
                                     files={"photo": ("shelf.jpg", SHELF_PHOTO.read_bytes(), "image/jpeg")},
                                     allow_redirects=False, timeout=60)
        assert answer.status_code == 303, answer.text[:300]
        scan = answer.headers["Location"].rsplit("/", 1)[1]
        wait_for(lambda: value(server, "SELECT status FROM shelf_scan WHERE id = ?", scan)[0] == "running", 30,
                 "the scan running")
        server.kill()
        assert value(server, "SELECT status FROM shelf_scan WHERE id = ?", scan)[0] == "running"

        server = Server(slow_books, data_dir=server.data_dir)
        status, matches = wait_for(
            lambda: (row := value(server, "SELECT status, matches FROM shelf_scan WHERE id = ?", scan))
            and row[0] in ("done", "failed") and row, 60, "the scan after the restart")
        assert status == "done" and "9780140446043" in (matches or ""), (status, matches)
        leftovers = list((server.data_dir / "data" / "media" / ".scans").glob("*"))
        assert leftovers == [], leftovers
    finally:
        server.stop()


def test_kill_9_mid_photo_reading_then_restart_reads_it(slow_books):
    server = Server(slow_books)
    try:
        api = api_session(server, "quoter")
        book = api.post(server.base + "/api/v1/books", json={"title": "A page to read"}, timeout=10).json()["book"]["id"]
        # A full page, so tesseract is still reading when the server is killed.
        page = images.text_photo(["It was the best of times, it was the worst", "of times, it was the age of wisdom."]
                                 + [f"line {n} of a long page of small print to keep the reader busy" for n in range(24)])
        created = api.post(server.base + f"/api/v1/books/{book}/photos",
                           files={"photo": ("page.jpg", page, "image/jpeg")}, timeout=60)
        assert created.status_code == 201, created.text
        photo = created.json()["photos"][0]["id"]
        wait_for(lambda: value(server, "SELECT ocr_status FROM photo WHERE id = ?", photo)[0] == "reading", 30,
                 "tesseract reading the photo")
        server.kill()

        server = Server(slow_books, data_dir=server.data_dir)
        status, text = wait_for(
            lambda: (row := value(server, "SELECT ocr_status, ocr_text FROM photo WHERE id = ?", photo))
            and row[0] in ("done", "failed") and row, 60, "the reading after the restart")
        assert status == "done" and "best of times" in (text or ""), (status, text)
    finally:
        server.stop()


def test_kill_9_mid_enrichment_then_restart_enriches_each_book_once(slow_books):
    server = Server(slow_books)
    try:
        api = api_session(server, "enricher")
        header = "Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf,Date Read,Date Added\r\n"
        rows = [f'{n},Book {n},Ann Author,,="{isbn13(2000 + n)}",,to-read,,2024/04/02\r\n' for n in range(6)]
        rows.append('9,The Complete Essays,Michel de Montaigne,,="9780140446043",,to-read,,2024/04/02\r\n')
        answer = api.post(server.base + "/api/v2/imports", files={
            "file": ("goodreads_library_export.csv", (header + "".join(rows)).encode(), "text/csv")}, timeout=30)
        assert answer.status_code == 202, answer.text
        job = answer.json()["data"]["jobId"]
        count = "SELECT COUNT(*) FROM enrichment_queue WHERE job_id = ? AND status = ?"
        wait_for(lambda: value(server, count, job, "pending")[0] < len(rows)
                 and value(server, count, job, "pending")[0] > 0, 60, "enrichment under way")
        server.kill()
        left = value(server, count, job, "pending")[0]

        server = Server(slow_books, data_dir=server.data_dir)
        wait_for(lambda: value(server, count, job, "pending")[0] == 0, 90, "enrichment after the restart")
        enriched = value(server, count, job, "enriched")[0]
        failed = value(server, count, job, "failed")[0]
        # Montaigne is known to the fake Google Books; the six invented ISBNs are known nowhere.
        assert (enriched, failed) == (1, 6), (left, enriched, failed)
        books, = value(server, "SELECT COUNT(*) FROM book")
        assert books == len(rows)
        print(f"killed with {left} of {len(rows)} books waiting; after the restart {enriched} enriched, "
              f"{failed} unknown")
    finally:
        server.stop()
