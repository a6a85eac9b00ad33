"""Imports against the release binary: a `kill -9` in the middle of one, and an export file written to hurt."""
import csv
import io
import pathlib
import re
import sqlite3
import time

from conftest import ROOT, Reader, Server

MADE_EXPORT = ROOT / "Tests" / "Fixtures" / "imports" / "goodreads_library_export.csv"


def goodreads_rows(copies):
    """The made export's rows repeated under new titles and ids, without ISBNs, so each is a new book."""
    with MADE_EXPORT.open(encoding="utf-8-sig", newline="") as source:
        reader = csv.DictReader(source)
        header, rows = reader.fieldnames, list(reader)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=header)
    writer.writeheader()
    for copy in range(copies):
        for row in rows:
            writer.writerow(dict(row, **{"Book Id": f"{copy}{row['Book Id']}", "Title": f"{row['Title']} #{copy}",
                                         "ISBN": '=""', "ISBN13": '=""'}))
    return out.getvalue().encode(), copies * len(rows)


def upload_and_confirm(reader, data, name="goodreads_library_export.csv"):
    answer = reader.session.post(reader.base + "/import", data={"_csrf": reader.token},
                                 files={"file": (name, data, "text/csv")}, allow_redirects=False, timeout=60)
    assert answer.status_code == 303, answer.text[:300]
    path = answer.headers["Location"]
    reader.get(path)
    confirmed = reader.post(path + "/confirm", {"existing": "update"}, allow_redirects=False)
    assert confirmed.status_code == 303
    return path


def job_row(data_dir, job_id):
    with sqlite3.connect(str(data_dir / "data" / "shelfed.sqlite"), timeout=10) as database:
        return database.execute("SELECT status, processed, total, created FROM import_job WHERE id = ?",
                                (job_id,)).fetchone()


def wait_for(predicate, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out")


def test_kill_9_mid_import_then_restart_finishes_with_no_duplicate(fake_books):
    server = Server(fake_books)
    data_dir = server.data_dir
    try:
        reader = Reader(server.base, "mover")
        data, rows = goodreads_rows(14)
        path = upload_and_confirm(reader, data)
        job_id = path.rsplit("/", 1)[1]
        midway = wait_for(lambda: (row := job_row(data_dir, job_id)) and 0 < row[1] < row[2] and row)
        server.kill()
        stopped_at = job_row(data_dir, job_id)
        assert stopped_at[0] == "processing" and stopped_at[1] < rows, stopped_at

        server = Server(fake_books, data_dir=data_dir)
        done = wait_for(lambda: (row := job_row(data_dir, job_id)) and row[0] == "completed" and row)
        assert done[1:] == (rows, rows, rows), (midway, stopped_at, done)
        with sqlite3.connect(str(data_dir / "data" / "shelfed.sqlite")) as database:
            entries, = database.execute("SELECT COUNT(*) FROM user_book").fetchone()
            distinct, = database.execute("SELECT COUNT(*) FROM (SELECT DISTINCT title, authors FROM book)").fetchone()
            pending, = database.execute("SELECT COUNT(*) FROM import_row WHERE outcome = 'pending'").fetchone()
        assert (entries, distinct, pending) == (rows, rows, 0)
        print(f"killed at {stopped_at[1]} of {rows} rows; after the restart {done[3]} books, no duplicate")
    finally:
        server.stop()


HOSTILE = (
    "Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf,Bookshelves,Number of Pages,My Review,Private Notes\r\n"
    '1,"<script>alert(1)</script>",Eve,,,5,read,"=cmd|\' /C calc\'!A0",9223372036854775807,"x""\u0301 onmouseover=alert(2) x=""",'
    '"=HYPERLINK(""http://evil.example"",""notes"")"\r\n'
    f'2,"{"A" * 1_000_000}",Mallory,,,4,read,,-9223372036854775808,,\r\n'
    '3,"+SUM(1,2)",@Trudy,,,9,to-read,,99999999999999999999999,"-2+3",\r\n'
)


def test_a_hostile_export_imports_safely_and_exports_neutralised(server, alice):
    path = upload_and_confirm(alice, HOSTILE.encode(), name="<img src=x onerror=alert(3)>.csv")
    results = wait_for(lambda: (page := alice.get(path)) and 'id="results"' in page.text and page)
    assert server.alive()
    # The 1 MB title is refused with its reason; the others are in, as text.
    assert "<th scope=\"row\">Added</th><td>2</td>" in results.text
    assert "longer than 500 characters" in results.text
    assert "<img src=x" not in results.text and "&lt;img src=x onerror=alert(3)&gt;.csv" in results.text
    shelf = alice.get("/shelves/read")
    assert "<script>alert(1)</script>" not in shelf.text and "&lt;script&gt;alert(1)&lt;/script&gt;" in shelf.text
    book = re.search(r'href="(/books/\d+)">&lt;script&gt;', shelf.text).group(1)
    page = alice.get(book)
    assert page.status_code == 200
    assert "9223372036854775807" not in page.text, "an absurd page count was stored"
    assert 'onmouseover=alert(2) x="' not in page.text
    export = alice.get("/export/goodreads")
    assert export.status_code == 200
    lines = export.text.split("\r\n")
    hostile_line = next(line for line in lines if "alert(1)" in line)
    assert "'=HYPERLINK" in hostile_line and ",=HYPERLINK" not in hostile_line
    plus_line = next(line for line in lines if "SUM(1,2)" in line)
    assert plus_line.split(",")[1].startswith("\"'+SUM") and "'@Trudy" in plus_line
    for line in lines[1:]:
        for cell in next(csv.reader([line])) if line else []:
            assert not cell[:1] in ("=", "+", "-", "@") or re.fullmatch(r'="\d*X?"', cell), (cell[:40], line[:80])
    assert server.alive()


def letterboxd_zip(entries):
    import zipfile
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            archive.writestr(name, data)
    return out.getvalue()


def test_hostile_watching_histories_are_refused_whole_or_imported_as_text(server, alice):
    data_dir = server.data_dir

    def upload(name, data, mime="application/zip"):
        return alice.session.post(alice.base + "/import", data={"_csrf": alice.token},
                                  files={"file": (name, data, mime)}, allow_redirects=False, timeout=60)

    jobs_before = job_count(data_dir)
    # A ZIP bomb (a 60 MB diary that zips to 60 KB), paths that climb out, a damaged ZIP, a header with nothing under
    # it, a JSON that is not Trakt's: each a 422 that says what to do, no job left, no file left behind.
    bomb = letterboxd_zip([("diary.csv", b"Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n"
                            + b"a" * (60 << 20))])
    climbing = letterboxd_zip([("../../watched.csv", b"Date,Name,Year,Letterboxd URI\n2020-01-01,Alien,1979,x\n")])
    for name, data, mime, words in [
        ("bomb.zip", bomb, "application/zip", "larger than Shelfed reads from one export"),
        ("climbing.zip", climbing, "application/zip", "holds none of the exports Shelfed reads"),
        ("damaged.zip", b"PK\x03\x04" + b"\x00" * 64, "application/zip", "damaged"),
        ("diary.csv", b"Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\r\n", "text/csv", "no rows"),
        ("history.json", b"[{\"watched_at\": 12, \"movie\": 7}, 3]", "application/json",
         "holds none of the exports Shelfed reads"),
    ]:
        answer = upload(name, data, mime)
        assert answer.status_code == 422, (name, answer.status_code)
        assert words in answer.text, (name, re.findall(r'role="alert"[^>]*>([^<]+)', answer.text))
        assert server.alive()
    assert job_count(data_dir) == jobs_before
    leftovers = list((data_dir / "data" / "imports").glob("*")) if (data_dir / "data" / "imports").exists() else []
    assert not leftovers, leftovers

    # Formula cells and markup in a Letterboxd review come in as text and go out neutralised.
    hostile = letterboxd_zip([
        ("reviews.csv", ("Date,Name,Year,Letterboxd URI,Rating,Rewatch,Review,Tags,Watched Date\n"
                         "2021-01-02,=HYPERLINK(\"http://x\"),1999,https://boxd.it/a,4,,"
                         "\"<script>alert(1)</script> fine\",@SUM(1),2021-01-01\n").encode()),
    ])
    path = upload_and_confirm(alice, hostile, name="letterboxd.zip")
    results = wait_for(lambda: (page := alice.get(path)) and 'id="results"' in page.text and page)
    assert "<th scope=\"row\">Added</th><td>1</td>" in results.text
    export = alice.get("/export/letterboxd")
    line = next(line for line in export.text.split("\r\n") if "HYPERLINK" in line)
    assert "'=HYPERLINK" in line and "<script>" not in line and "'@SUM(1)" in line, line
    assert server.alive()


def job_count(data_dir):
    with sqlite3.connect(str(data_dir / "data" / "shelfed.sqlite"), timeout=10) as database:
        return database.execute("SELECT COUNT(*) FROM import_job").fetchone()[0]
