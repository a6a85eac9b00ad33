"""The words on page photos, against the release binary: text rendered in several fonts and sizes, slightly turned,
is read by tesseract in the background, then found by Search my quotes — by its owner only."""
import time
import uuid

import pytest
import requests

import capture_images as images

PASSAGE = ["It was the best of times, it was the worst", "of times, it was the age of wisdom, it was",
           "the age of foolishness, it was the epoch of", "belief, it was the epoch of incredulity."]


def api(server, username):
    answer = requests.post(server.base + "/api/v1/sessions",
                           json={"email": username, "password": "correct horse battery"}, timeout=10)
    assert answer.status_code in (200, 201), answer.text
    session = requests.Session()
    session.headers["Authorization"] = "Bearer " + answer.json()["api_key"]
    return session


def upload_page(server, session, jpeg, title="A Tale of Two Cities"):
    book = session.post(server.base + "/api/v1/books", json={"title": f"{title} {uuid.uuid4().hex[:6]}"},
                        timeout=10).json()["book"]["id"]
    created = session.post(server.base + f"/api/v1/books/{book}/photos",
                           files={"photo": ("page.jpg", jpeg, "image/jpeg")}, timeout=60)
    assert created.status_code == 201, created.text
    return created.json()["photos"][0]["id"]


def wait_for_text(server, session, photo_id, timeout=90):
    deadline = time.time() + timeout
    while time.time() < deadline:
        photo = session.get(server.base + f"/api/v1/photos/{photo_id}", timeout=10).json()["photo"]
        if photo["text_status"] not in ("pending",):
            return photo
        time.sleep(0.5)
    raise AssertionError(f"photo {photo_id} was not read within {timeout} s")


@pytest.mark.parametrize("font,size,angle", [
    (images.FONTS[0], 44, 0.0),   # DejaVu Serif, book-sized
    (images.FONTS[1], 36, 1.5),   # DejaVu Sans, smaller, slightly turned
    (images.FONTS[2], 40, -2.0),  # DejaVu Sans Mono, turned the other way
])
def test_words_on_a_page_photo_are_read_and_found(server, alice, font, size, angle):
    session = api(server, "alice")
    photo_id = upload_page(server, session, images.text_photo(PASSAGE, font_path=font, font_size=size, angle=angle))
    photo = wait_for_text(server, session, photo_id)
    assert photo["text_status"] == "done", photo
    words = {word.strip(",.").lower() for word in photo["text"].split()}
    expected = {word.strip(",.").lower() for line in PASSAGE for word in line.split()}
    assert len(words & expected) / len(expected) >= 0.9, (font, size, angle, photo["text"])
    found = session.get(server.base + "/api/v1/quotes", params={"q": "foolishness"}, timeout=10).json()["quotes"]
    assert photo_id in [quote["photo"]["id"] for quote in found]
    page = alice.get("/quotes?q=incredul")
    assert f"/photos/{photo_id}/thumb" in page.text and "<mark>incredulity</mark>" in page.text


def test_another_readers_quotes_never_appear(server, alice):
    mine = api(server, "alice")
    photo_id = upload_page(server, mine, images.text_photo(["The quality of mercy is not strained"]), "Merchant")
    assert wait_for_text(server, mine, photo_id)["text_status"] == "done"
    from conftest import Reader
    Reader(server.base, "mallory")
    theirs = api(server, "mallory")
    assert theirs.get(server.base + "/api/v1/quotes", params={"q": "mercy"}, timeout=10).json() == {"quotes": []}
    assert theirs.get(server.base + f"/api/v1/photos/{photo_id}", timeout=10).status_code == 404
    assert server.alive()
