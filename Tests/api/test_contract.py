"""The two iPhone apps' contracts, written from DESIGN §6 alone and run against the release binary.

`ReaderClient` signs in with email and password and sends its key in the query string, as the Reader app does
(then with the Bearer header); `BooksTrackClient` calls search and enrich and decodes them the way that app does:
the envelope for search, the bare body for enrich."""
import re

import requests

from conftest import register

HEX40 = re.compile(r"^[0-9a-f]{40}$")


class ReaderClient:
    def __init__(self, base, email, password, bearer=False):
        self.base = base
        self.bearer = bearer
        answer = requests.post(base + "/api/v1/sessions", json={"email": email, "password": password})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert set(body) == {"user_id", "api_key"}
        assert isinstance(body["user_id"], int) and HEX40.match(body["api_key"])
        self.user_id, self.api_key = body["user_id"], body["api_key"]

    def get(self, path):
        if self.bearer:
            return requests.get(self.base + path, headers={"Authorization": f"Bearer {self.api_key}"})
        return requests.get(self.base + path, params={"api_key": self.api_key, "user_id": self.user_id})

    def shelves(self):
        answer = self.get("/api/v1/shelves")
        assert answer.status_code == 200
        assert answer.headers["Content-Type"].startswith("application/json")
        assert answer.headers["Cache-Control"] == "no-store"
        assert "Set-Cookie" not in answer.headers
        return answer.json()


def add_by_hand(base, key, **book):
    answer = requests.post(base + "/api/v1/books", json=book, headers={"Authorization": f"Bearer {key}"})
    assert answer.status_code == 201, answer.text
    return answer.json()["book"]["id"]


def test_reader_app_with_the_key_in_the_query_string(server):
    email, password = register(server.base, "readerapp")
    client = ReaderClient(server.base, email, password)
    dune = add_by_hand(server.base, client.api_key, title="Dune", authors=["Frank Herbert"], isbn="9780441172719",
                       shelf_id=1)
    add_by_hand(server.base, client.api_key, title="Emma", authors="Jane Austen", shelf_id=3)

    shelves = client.shelves()
    assert shelves["user"] == email
    assert [(s["id"], s["name"], s["book_count"]) for s in shelves["shelves"]] == [
        (1, "Currently Reading", 1), (2, "Want to Read", 0), (3, "Read", 1), (4, "Did Not Finish", 0)]

    shelf = client.get("/api/v1/shelves/1").json()
    assert shelf["shelf"] == {"id": 1, "name": "Currently Reading"}
    assert shelf["books"] == [{"id": dune, "title": "Dune", "author": "Frank Herbert", "isbn": "9780441172719"}]

    books = client.get("/api/v1/books").json()
    assert books["user"] == email and books["book_count"] == 2
    emma = next(b for b in books["books"] if b["title"] == "Emma")
    assert emma["shelf_id"] == 3 and emma["shelf_name"] == "Read" and emma["isbn"] is None

    book = client.get(f"/api/v1/books/{dune}").json()["book"]
    assert book == {"id": dune, "title": "Dune", "author": "Frank Herbert", "isbn": "9780441172719", "shelf_id": 1,
                    "shelf_name": "Currently Reading", "image_url": None, "comments": None}

    missing = client.get("/api/v1/books/999999")
    assert missing.status_code == 404 and isinstance(missing.json()["error"], str)
    wrong_user = requests.get(server.base + "/api/v1/shelves",
                              params={"api_key": client.api_key, "user_id": client.user_id + 1})
    assert wrong_user.status_code == 401 and "error" in wrong_user.json()


def test_reader_app_with_the_bearer_header(server):
    email, password = register(server.base, "bearerapp")
    client = ReaderClient(server.base, email, password, bearer=True)
    assert client.shelves()["user"] == email
    assert requests.get(server.base + "/api/v1/books").status_code == 401
    bad = requests.post(server.base + "/api/v1/sessions", json={"email": email, "password": "wrong"})
    assert bad.status_code == 401 and bad.json() == {"error": "Invalid credentials"}


class BooksTrackClient:
    """Decodes as that app does: `success` first, then `data` and `metadata`; enrich has no envelope."""

    def __init__(self, base):
        self.base = base

    def search(self, path, **params):
        answer = requests.get(self.base + path, params=params)
        body = answer.json()
        if not body["success"]:
            error = body["error"]
            assert {"code", "message", "retryable"} <= set(error)
            return answer, None, error
        assert answer.headers["X-Cache"] in ("HIT", "MISS")
        assert answer.headers["Cache-Control"].startswith("private, max-age=")
        assert body["metadata"]["source"] in ("google_books", "open_library", "cache")
        return answer, body["data"], body["metadata"]

    def enrich(self, barcode, key=None):
        payload = {"barcode": barcode}
        if key:
            payload["idempotencyKey"] = key
        return requests.post(self.base + "/api/v2/books/enrich", json=payload)


BOOK_DTO_FIELDS = {"isbn", "isbn13", "title", "authors", "publisher", "publishedDate", "description", "pageCount",
                   "categories", "language", "coverUrl", "averageRating", "ratingsCount"}


def test_bookstrack_search_and_enrich(server):
    client = BooksTrackClient(server.base)
    answer, book, metadata = client.search("/v1/search/isbn", isbn="0140446044")
    assert answer.status_code == 200 and set(book) == BOOK_DTO_FIELDS
    assert book["isbn13"] == "9780140446043" and metadata == {"source": "google_books", "cached": False}
    answer, _, metadata = client.search("/v1/search/isbn", isbn="9780140446043")
    assert answer.headers["X-Cache"] == "HIT" and metadata == {"source": "cache", "cached": True}

    answer, data, _ = client.search("/v1/search/title", q="harry potter", limit=5)
    assert len(data["books"]) == 5 and data["totalItems"] >= 5
    assert all(set(b) == BOOK_DTO_FIELDS for b in data["books"])
    answer, _, error = client.search("/v1/search/author", q="x", limit=41)
    assert answer.status_code == 400 and error["code"] == "INVALID_REQUEST" and error["retryable"] is False
    answer, _, error = client.search("/v1/search/isbn", isbn="9780000000002")
    assert answer.status_code in (404, 400) and error["code"] in ("NOT_FOUND", "INVALID_REQUEST")

    enriched = client.enrich("9780060273224", key="contract-1")
    assert enriched.status_code == 200
    body = enriched.json()
    assert set(body) == {"work", "edition", "authors"}
    assert body["work"]["title"] == "Sabriel" and body["work"]["firstPublishYear"] == 1995
    assert body["edition"]["numberOfPages"] == 491 and body["authors"][0]["name"] == "Garth Nix"
    assert client.enrich("9780060273224", key="contract-1").json() == body
    bad = client.enrich("not a barcode")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "INVALID_REQUEST"
