"""ISBN barcodes from photos, against the release binary: EAN-13s rendered by python-barcode, then turned, blurred,
warped and saved as noisy JPEGs (Tests/e2e/capture_images.py), through the web page and the API."""
import io
import pathlib

import pytest
import requests
from PIL import Image

import capture_images as images
from conftest import location_path

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "Fixtures" / "images"
KNOWN = "9780140446043"  # the fake Google Books has this one (Montaigne, The Complete Essays)
OTHERS = ["9780804720991", "9783551551672"]


@pytest.fixture(scope="module")
def api_key(server, alice):
    answer = requests.post(server.base + "/api/v1/sessions",
                           json={"email": "alice", "password": "correct horse battery"}, timeout=10)
    assert answer.status_code in (200, 201), answer.text
    return answer.json()["api_key"]


def scan(server, api_key, jpeg, name="photo.jpg"):
    answer = requests.post(server.base + "/api/v1/scans/barcode", headers={"Authorization": f"Bearer {api_key}"},
                           files={"photo": (name, jpeg, "image/jpeg")}, timeout=120)
    assert server.alive()
    return answer


@pytest.mark.parametrize("name,photo,expected", [
    ("flat", lambda: images.book_photo([KNOWN]), [KNOWN]),
    ("small and far", lambda: images.book_photo([KNOWN], barcode_width=380), [KNOWN]),
    ("on its side", lambda: images.book_photo([KNOWN], angle=90), [KNOWN]),
    ("slanted 30°", lambda: images.book_photo([KNOWN], angle=30, barcode_width=1100), [KNOWN]),
    ("blurred, warped, noisy", lambda: images.book_photo([KNOWN], blur=1.5, perspective=0.06, quality=55, noise=30),
     [KNOWN]),
    ("upside down by EXIF", lambda: images.with_orientation(images.book_photo([KNOWN]), 3), [KNOWN]),
    ("turned by EXIF 6", lambda: images.with_orientation(images.book_photo([KNOWN]), 6), [KNOWN]),
    ("turned by EXIF 8", lambda: images.with_orientation(images.book_photo([KNOWN], angle=5), 8), [KNOWN]),
    ("a stack of three", lambda: images.book_photo([KNOWN] + OTHERS, barcode_width=800, angle=4, blur=0.8),
     [KNOWN] + OTHERS),
])
def test_barcodes_are_found(server, api_key, name, photo, expected):
    answer = scan(server, api_key, photo())
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["source"] == "barcode", (name, body)
    assert sorted(body["isbns"]) == sorted(expected), (name, body)
    known = [book for book in body["books"] if book["isbn"] == KNOWN][0]
    assert known["found"] and "Complete Essays" in known["title"], known
    for book in body["books"]:
        if book["isbn"] != KNOWN:
            assert not book["found"] and book["error"] is None, book


@pytest.mark.parametrize("fixture", sorted(p.name for p in FIXTURES.glob("*.jpg")))
def test_photos_without_a_barcode_say_so(server, api_key, fixture):
    answer = scan(server, api_key, (FIXTURES / fixture).read_bytes(), fixture)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"source": "none", "isbns": [], "other_codes": [], "books": []}


def test_a_printed_isbn_line_is_read_when_there_is_no_barcode(server, api_key):
    page = images.text_photo(["Penguin Books Ltd, 80 Strand, London", "First published 1946",
                              "ISBN 978-0-14-044604-3", "Printed in England"], size=(1600, 1000))
    body = scan(server, api_key, page).json()
    assert body["source"] == "printed_text", body
    assert body["isbns"] == [KNOWN]


def test_a_shop_barcode_alone_is_reported_as_not_an_isbn(server, api_key):
    body = scan(server, api_key, images.book_photo(["4006381333931"])).json()
    assert body["source"] == "none" and body["isbns"] == [], body
    assert body["other_codes"] == ["4006381333931"]


def test_the_web_page_finds_the_book_and_adds_it(server, alice):
    page = alice.get("/scan")
    assert page.status_code == 200 and 'capture="environment"' in page.text
    answer = alice.session.post(server.base + "/scan", data={"_csrf": alice.token},
                                files={"photo": ("back.jpg", images.book_photo([KNOWN], angle=90), "image/jpeg")},
                                allow_redirects=False, timeout=120)
    assert answer.status_code == 303, answer.text[:500]
    assert answer.headers["Location"] == f"/scan/books?isbn={KNOWN}"
    confirm = alice.get(answer.headers["Location"])
    assert "The Complete Essays" in confirm.text and 'name="shelf"' in confirm.text
    added = alice.post("/search/add", {"isbn": KNOWN, "shelf": "reading", "return_to": f"/scan/books?isbn={KNOWN}"},
                       allow_redirects=False)
    # Back to the scan page, which says what was added (issue 22's toast).
    assert added.status_code == 303 and location_path(added) == "/scan/books"
    assert added.headers["Location"].startswith(f"/scan/books?isbn={KNOWN}&done=added&book=")
    again = alice.get(added.headers["Location"])
    assert "Already on your" in again.text and "Reading" in again.text
    assert "Added <em>The Complete Essays" in again.text
    assert "The Complete Essays" in alice.get("/shelves/reading").text


def test_the_web_page_without_a_barcode_gives_advice_and_an_isbn_field(server, alice):
    alice.get("/scan")
    answer = alice.session.post(server.base + "/scan", data={"_csrf": alice.token},
                                files={"photo": ("cat.jpg", (FIXTURES / "Landscape_1.jpg").read_bytes(), "image/jpeg")},
                                timeout=120)
    assert answer.status_code == 200
    assert "No ISBN barcode found" in answer.text and "closer" in answer.text and 'name="isbn"' in answer.text
    typed = alice.get("/scan/books?isbn=978-0-14-044604-4")
    assert typed.status_code == 422 and "978-0-14-044604-4" in typed.text and "not an ISBN" in typed.text


def test_what_is_not_a_photo_is_refused_and_nothing_is_left(server, api_key):
    answer = scan(server, api_key, b"%PDF-1.4 not a photo", "x.pdf")
    assert answer.status_code == 415 and "JPEG" in answer.json()["error"]
    truncated = images.book_photo([KNOWN])[:40_000]
    assert scan(server, api_key, truncated).status_code == 415
    assert list((server.data_dir / "data" / "media" / ".incoming").iterdir()) == []


def test_the_scan_needs_a_key_and_a_csrf_token(server, alice):
    assert requests.post(server.base + "/api/v1/scans/barcode", files={"photo": ("a.jpg", b"x")},
                         timeout=10).status_code == 401
    answer = alice.session.post(server.base + "/scan", files={"photo": ("a.jpg", images.book_photo([KNOWN]))},
                                timeout=30)
    assert answer.status_code == 403
