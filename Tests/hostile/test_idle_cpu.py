"""An idle server stays idle (DESIGN §11, issue 20 finding 1): after each kind of background work — a shelf scan, a
batch enrich, a page photo read by OCR, a confirmed file import, the enrichment of an imported book — and with no
request coming in, the release binary uses almost no CPU. One fresh server does the work in turn (the kinds that do
not involve the file-import runner first, so that a failure points at its own cause as far as one server allows) and
is measured after each."""
import os
import sqlite3
import time

import pytest
import requests

import capture_images as images
from conftest import ROOT, Reader, Server

TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")
IDLE_WINDOW = 5.0  # seconds with no request
BUDGET = 15  # clock ticks of utime + stime in IDLE_WINDOW
KNOWN = "9780140446043"  # the fake Google Books knows it (Montaigne, The Complete Essays)
SABRIEL = "9780060273224"  # the fake Open Library knows it
HEADER = "Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf,Date Read,Date Added\r\n"
SHELF_PHOTO = ROOT / "Tests" / "Fixtures" / "images" / "Landscape_1.jpg"


@pytest.fixture(scope="module")
def idle_server(fake_books):
    running = Server(fake_books)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def person(idle_server):
    reader = Reader(idle_server.base, "idler")
    answer = requests.post(idle_server.base + "/api/v1/sessions",
                           json={"email": "idler", "password": "correct horse battery"}, timeout=10)
    assert answer.status_code in (200, 201), answer.text
    api = requests.Session()
    api.headers["Authorization"] = "Bearer " + answer.json()["api_key"]
    return reader, api


def cpu_ticks(pid):
    """utime + stime (fields 14 and 15 of /proc/<pid>/stat) of every thread of the process, in clock ticks."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def waiting_for_meaning(server):
    """Books and page photos with words that the background has not yet given a meaning vector (issue 23)."""
    with sqlite3.connect(str(server.data_dir / "data" / "shelfed.sqlite"), timeout=10) as database:
        books = database.execute("SELECT COUNT(*) FROM book LEFT JOIN book_embedding ON book_id = book.id "
                                 "WHERE book_embedding.book_id IS NULL").fetchone()[0]
        photos = database.execute(
            "SELECT COUNT(*) FROM photo LEFT JOIN photo_embedding ON photo_id = photo.id WHERE photo.book_id IS NOT NULL "
            "AND (COALESCE(ocr_text, '') != '' OR COALESCE(comment, '') != '') AND photo_embedding.photo_id IS NULL"
        ).fetchone()[0]
    return books + photos


def idle_ticks(server, after):
    """CPU the server uses in IDLE_WINDOW seconds with no request, a second after the work has finished — all of
    it, including the meaning vectors of the books and photo text the work added, which follow it in the
    background."""
    deadline = time.monotonic() + 60
    while waiting_for_meaning(server) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not waiting_for_meaning(server), f"books or photos still waiting for meaning vectors after {after}"
    time.sleep(1.0)
    assert server.alive()
    before = cpu_ticks(server.process.pid)
    time.sleep(IDLE_WINDOW)
    used = cpu_ticks(server.process.pid) - before
    print(f"idle CPU after {after}: {used} ticks / {IDLE_WINDOW:.0f} s ({TICKS_PER_SECOND} ticks a second)")
    return used


def wait_until(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"{what} did not finish within {seconds} s")


def import_file(server, api, rows):
    """A Goodreads export through `POST /api/v2/imports`, waited until its job has finished; its id."""
    data = (HEADER + "".join(rows)).encode()
    answer = api.post(server.base + "/api/v2/imports",
                      files={"file": ("goodreads_library_export.csv", data, "text/csv")}, timeout=30)
    assert answer.status_code == 202, answer.text
    job_id = answer.json()["data"]["jobId"]
    wait_until(lambda: job_finished(server, api, job_id), 30, f"import {job_id}")
    return job_id


def database_value(server, sql, *arguments):
    """Read straight from the database: the API allows only 30 status calls a minute."""
    with sqlite3.connect(str(server.data_dir / "data" / "shelfed.sqlite"), timeout=10) as database:
        return database.execute(sql, arguments).fetchone()[0]


def job_finished(server, api, job_id):
    status = database_value(server, "SELECT status FROM import_job WHERE id = ?", job_id)
    assert status not in ("failed", "canceled"), status
    return status == "completed"


def enrichment_pending(server, job_id):
    return database_value(server, "SELECT COUNT(*) FROM enrichment_queue WHERE job_id = ? AND status = 'pending'",
                          job_id)


def test_idle_before_any_work(idle_server, person):
    assert idle_ticks(idle_server, "start (no work yet)") <= BUDGET


def test_idle_after_a_shelf_scan(idle_server, person):
    _, api = person
    answer = api.post(idle_server.base + "/api/v1/scans/shelf",
                      files={"photo": ("shelf.jpg", SHELF_PHOTO.read_bytes(), "image/jpeg")}, timeout=60)
    assert answer.status_code == 200, answer.text[:300]
    assert answer.json()["books"], answer.text[:300]
    assert idle_ticks(idle_server, "a shelf scan") <= BUDGET


def test_idle_after_a_batch_enrich(idle_server, person):
    _, api = person
    answer = api.post(idle_server.base + "/api/batch-enrich", json={"barcodes": [KNOWN, "9780804720991"]}, timeout=10)
    assert answer.status_code == 202, answer.text
    job_id = answer.json()["data"]["jobId"]
    wait_until(lambda: job_finished(idle_server, api, job_id), 30, f"batch enrich {job_id}")
    assert idle_ticks(idle_server, "a batch enrich of 2 ISBNs") <= BUDGET


def test_idle_after_a_page_photo_is_read(idle_server, person):
    _, api = person
    book = api.post(idle_server.base + "/api/v1/books", json={"title": "A page to read"},
                    timeout=10).json()["book"]["id"]
    page = images.text_photo(["It was the best of times, it was the worst", "of times, it was the age of wisdom."])
    created = api.post(idle_server.base + f"/api/v1/books/{book}/photos",
                       files={"photo": ("page.jpg", page, "image/jpeg")}, timeout=60)
    assert created.status_code == 201, created.text
    photo_id = created.json()["photos"][0]["id"]
    photo = wait_until(
        lambda: (found := api.get(idle_server.base + f"/api/v1/photos/{photo_id}", timeout=10).json()["photo"])
        ["text_status"] != "pending" and found, 60, f"reading photo {photo_id}")
    assert photo["text_status"] == "done", photo
    assert idle_ticks(idle_server, "OCR of a page photo") <= BUDGET


def test_idle_after_a_confirmed_import(idle_server, person):
    _, api = person
    # No ISBN: its enrichment is given up at once, without a lookup, so only the import itself is measured.
    import_file(idle_server, api, ['1,An Imported Book,Ann Author,,,4,read,2024/05/01,2024/04/01\r\n'])
    assert idle_ticks(idle_server, "a one-row import") <= BUDGET


def test_idle_after_enrichment_of_an_imported_book(idle_server, person):
    _, api = person
    job_id = import_file(idle_server, api, [f'2,Sabriel,Garth Nix,,="{SABRIEL}",,to-read,,2024/04/02\r\n'])
    # The enrichment worker looks for due books every few seconds when it has nothing to do.
    wait_until(lambda: enrichment_pending(idle_server, job_id) == 0, 30, f"enrichment of job {job_id}")
    results = api.get(idle_server.base + f"/api/v2/imports/{job_id}/results", timeout=10).json()["data"]
    assert results["enrichmentSucceeded"] == 1, results
    assert idle_ticks(idle_server, "enrichment of an imported book") <= BUDGET
