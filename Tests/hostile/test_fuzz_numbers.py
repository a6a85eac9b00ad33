"""Every route × every parameter × the number corpus against the running release binary: after every request
the process is alive and the answer is not a 5xx (a trap anywhere takes the whole household offline)."""
import base64
import io

import pytest
import requests

from conftest import location_id, location_path

NUMBERS = ["9223372036854775807", "9223372036854775808", "-9223372036854775808", "153722867280912931", "-1", "0",
           "+1", "1e3", "0x10", "1.5", "NaN", " 7", "7 ", "\u0663", "\u0661\u0662", "000000000000000000000001",
           "99999999999999999999999999", "", "%00", "١e9"]
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")


@pytest.fixture(scope="module")
def targets(alice):
    book = alice.add_book("Fuzz target", page_count="300")
    upload = alice.session.post(alice.base + f"/books/{book}/photos", data={"_csrf": alice.token},
                                files={"photo": ("p.png", io.BytesIO(PNG), "image/png")}, allow_redirects=False)
    assert upload.status_code == 303, upload.text[:300]
    photo = location_id(upload)
    alice.get("/")
    return book, photo


def check(server, answer, what):
    assert server.alive(), f"the server died after {what}"
    assert answer.status_code < 500, f"{what} answered {answer.status_code}"


@pytest.mark.parametrize("number", NUMBERS, ids=repr)
def test_query_parameters(server, alice, targets, lists, number):
    book, photo = targets
    gets = [
        ("/shelves", ["page", "sort", "order", "year_from", "year_to", "rating", "owned", "favourite"]),
        ("/shelves/read", ["page"]), (f"/lists/{lists}", ["page", "year_from", "rating", "owned"]),
        ("/house", ["owner", "genre", "available", "page"]), ("/house/feed", ["page"]), ("/shelves/want-to-read", ["page"]), ("/shelves/did-not-finish", ["page"]),
        ("/favourites", ["page"]), ("/search", ["start", "field"]), ("/profile", ["year"]),
        (f"/books/{book}/photos", ["sort"]), ("/books/new", ["isbn", "title", "shelf"]),
        ("/scan/books", ["isbn", "from"]), ("/quotes", ["q"]), ("/library/search", ["q"]),
    ]
    for path, names in gets:
        for name in names:
            params = {name: number}
            if path == "/search":
                params["q"] = "9780140446043"
            check(server, alice.get(path, params=params), f"GET {path}?{name}={number!r}")


@pytest.mark.parametrize("number", NUMBERS, ids=repr)
def test_path_ids(server, alice, number):
    for path in ["/books/{}", "/books/{}/remove", "/books/{}/photos", "/books/{}/photos/new", "/photos/{}",
                 "/photos/{}/thumb", "/photos/{}/original", "/photos/{}/delete", "/search/volumes/{}",
                 "/scan/shelf/{}", "/scan/shelf/{}/add", "/lists/{}", "/lists/{}/edit", "/lists/{}/delete",
                 "/books/{}/lists", "/household/members/{}/remove", "/household/members/{}/admin",
                 "/household/members/{}/data", "/join/{}", "/password/{}", "/house/copies/{}/ask",
                 "/house/requests/{}", "/recommendations/{}/dismiss"]:
        url = path.format(requests.utils.quote(number, safe=""))
        check(server, alice.get(url), f"GET {url}")
        if "volumes" not in path and "thumb" not in path and "original" not in path:
            check(server, alice.post(url.replace("/photos/new", "/photos"), {}), f"POST {url}")


@pytest.fixture(scope="module")
def lists(alice, targets):
    """A list holding the target book, for the list forms' numbers."""
    made = alice.post("/lists", {"name": "Fuzz list"}, allow_redirects=False)
    assert made.status_code == 303, made.text[:300]
    list_id = location_id(made)
    alice.post(f"/lists/{list_id}/books", {"book_id": str(targets[0])})
    return list_id


@pytest.mark.parametrize("number", NUMBERS, ids=repr)
def test_form_numbers(server, alice, targets, lists, number):
    book, photo = targets
    posts = [
        ("/books", {"title": "Numbers", "page_count": number, "published_date": number, "isbn": number}),
        (f"/books/{book}/dates", {"started_at": number, "finished_at": number}),
        (f"/books/{book}/favourite", {"favourite": number}),
        (f"/books/{book}/shelf", {"shelf": number, "return_to": number}),
        ("/profile/goal", {"goal": number}),
        (f"/photos/{photo}", {"page_number": number, "comment": number}),
        ("/search/add", {"volume_id": number, "isbn": number, "shelf": "read"}),
        (f"/lists/{lists}/books", {"book_id": number, "return_to": number}),
        (f"/lists/{lists}/books/{book}/move", {"position": number}),
        (f"/lists/{lists}/books/{book}/move", {"direction": number}),
        (f"/books/{book}/lists", {"list": number, "new_name": number}),
        ("/household/invitations", {"note": number, "days": number}),
        (f"/books/{book}/lend", {"member": number, "name": "Sam", "lent_on": number, "due_on": number}),
        (f"/books/{book}/returned", {}),
        (f"/books/{book}/copy", {"owned": number, "format": number, "location": number}),
        ("/profile/sharing", {"shares": number}),
        (f"/books/{book}/recommend", {"member": number, "note": number}),
        (f"/household/invitations/{requests.utils.quote(number, safe='')}/revoke", {}),
    ]
    for path, fields in posts:
        answer = alice.post(path, fields, allow_redirects=False)
        check(server, answer, f"POST {path} {fields}")
        if path == "/books" and answer.status_code == 303:
            alice.post(location_path(answer) + "/remove", {})
