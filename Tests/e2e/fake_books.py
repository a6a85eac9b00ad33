"""A small fake Google Books / Open Library / Gemini / TVmaze / Wikidata for the browser suite: serves the answers
written for the tests in Tests/Fixtures on 127.0.0.1."""
import http.server
import json
import pathlib
import re
import threading
import time
import urllib.parse

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "Fixtures"
JELLYFIN_KEY = "0123456789abcdef0123456789abcdef"
JELLYFIN_USER = "4c1a2b3c4d5e6f708192a3b4c5d6e7f8"
SEARCHES = {
    "harry potter": "search_harry_potter.json",
    "batman": "search_batman.json",
    "isbn:9780140446043": "isbn_9780140446043.json",
}
# Cover links point at Google's hosts (books.google.com, bks9.books.google.co.uk, …).
GOOGLE_COVER_HOST = re.compile(r"http://([a-z0-9]+\.)?books\.google\.[a-z.]+")


class FakeBooks(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, delay=0.0):
        super().__init__(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server_address[1]}"
        self.delay = delay  # seconds each search answer takes, to hold requests in flight
        self.search_requests = 0

    def start(self):
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/books/v1/volumes":
            self.server.search_requests += 1
            time.sleep(self.server.delay)
            text = query.get("q", [""])[0].lower().replace("intitle:", "").replace("inauthor:", "")
            name = SEARCHES.get(text)
            self.send_fixture(name)
        elif url.path.startswith("/books/v1/volumes/"):
            volume_id = url.path.rsplit("/", 1)[1]
            written = f"volume_{volume_id}.json"
            if (FIXTURES / "googlebooks" / written).exists():
                self.send_fixture(written)
            else:
                # No single-volume answer: answer with the item as the search returned it.
                self.send_item(volume_id)
        elif url.path == "/ol/isbn/9780060273224.json":
            # Open Library redirects an ISBN to its edition; Sabriel's is the edition written for the tests.
            self.send_response(302)
            self.send_header("Location", "/ol/books/OL22951843M.json")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif url.path.startswith("/ol/books/"):
            self.send_bytes((FIXTURES / "openlibrary" / "edition_OL22951843M.json").read_bytes(), "application/json")
        elif url.path.startswith("/ol/works/"):
            self.send_bytes((FIXTURES / "openlibrary" / "work_OL15832982W.json").read_bytes(), "application/json")
        elif url.path.startswith("/ol/authors/"):
            # Open Library's author record, cut down to the fields Shelfed reads.
            self.send_bytes(b'{"name": "Garth Nix", "key": "/authors/OL382982A"}', "application/json")
        elif url.path == "/tvmaze/search/shows":
            if query.get("q", [""])[0].lower() == "severance":
                self.send_tvmaze("search_shows_severance.json")
            else:
                self.send_bytes(b"[]", "application/json")
        elif url.path == "/tvmaze/shows/44778":
            self.send_tvmaze("show_44778.json")
        elif url.path.startswith("/tvmaze/shows/"):
            # TVmaze's "no such show": 404 with an empty body that still claims to be JSON.
            self.send_response(404)
            self.send_header("Content-Type", "application/json; charset=UTF-8")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif url.path == "/wikidata/w/api.php":
            self.send_wikidata(query)
        elif url.path.startswith("/jellyfin/"):
            self.send_jellyfin(url.path[len("/jellyfin"):])
        elif url.path.startswith("/gcovers/") or url.path.startswith("/tvmaze/images/"):
            self.send_bytes((FIXTURES / "images" / "Portrait_1.jpg").read_bytes(), "image/jpeg")
        else:
            self.send_error(404)

    def do_POST(self):
        """Gemini's generateContent: the success envelope with a shelf's books as its JSON text."""
        length = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(length)
        if not self.path.startswith("/gemini/models/") or not self.path.endswith(":generateContent"):
            return self.send_error(404)
        envelope = json.loads((FIXTURES / "gemini" / "success_basic.json").read_text(encoding="utf-8"))
        envelope["candidates"][0]["content"]["parts"][0]["text"] = json.dumps({"books": [
            {"title": "The Complete Essays", "author": "Michel de Montaigne", "isbn": "9780140446043", "confidence": 0.95},
            {"title": "Harry Potter", "confidence": 0.8},
            {"title": "A Book Nobody Has", "author": "Anon", "isbn": "9780000000001", "confidence": 0.3},
        ]})
        self.send_bytes(json.dumps(envelope).encode(), "application/json")

    def send_fixture(self, name):
        if name is None:
            body = json.dumps({"kind": "books#volumes", "totalItems": 0})
        else:
            body = (FIXTURES / "googlebooks" / name).read_text(encoding="utf-8")
        # Keep the browser and the server on this machine.
        body = GOOGLE_COVER_HOST.sub(self.server.base_url + "/gcovers", body)
        self.send_bytes(body.encode(), "application/json; charset=UTF-8")

    def send_jellyfin(self, path):
        """A household's Jellyfin, in the shapes its API documents (no recorded answer exists): the key in
        `Authorization: MediaBrowser Token="…"`, else 401."""
        if self.headers.get("Authorization") != f'MediaBrowser Token="{JELLYFIN_KEY}"':
            return self.send_error(401)
        if path == "/System/Info":
            body = {"ServerName": "Living room", "Version": "10.10.3", "Id": "f00df00d"}
        elif path == "/Users":
            body = [{"Name": "Rain", "Id": JELLYFIN_USER, "ServerId": "f00df00d"}]
        elif path == f"/Users/{JELLYFIN_USER}/Items":
            items = [{"Name": "Dune", "Id": "aa000000000000000000000000000001", "Type": "Movie", "ProductionYear": 2021,
                      "ProviderIds": {"Tmdb": "438631", "Imdb": "tt1160419"},
                      "UserData": {"Played": True, "PlayCount": 1, "LastPlayedDate": "2026-02-01T20:15:00.0000000Z"}}]
            body = {"Items": items, "TotalRecordCount": len(items), "StartIndex": 0}
        elif path == "/Items":
            items = [{"Name": "Dune", "Id": "bb000000000000000000000000000001", "Type": "Movie",
                      "ProductionYear": 2021, "ProviderIds": {"Tmdb": "438631", "Imdb": "tt1160419"}}]
            body = {"Items": items, "TotalRecordCount": len(items), "StartIndex": 0}
        else:
            return self.send_error(404)
        self.send_bytes(json.dumps(body).encode(), "application/json; charset=utf-8")

    def send_tvmaze(self, name):
        body = (FIXTURES / "tvmaze" / name).read_text(encoding="utf-8")
        body = body.replace("http://static.tvmaze.com/", self.server.base_url + "/tvmaze/images/")
        self.send_bytes(body.encode(), "application/json; charset=UTF-8")

    def send_wikidata(self, query):
        action = query.get("action", [""])[0]
        if action == "query":
            search = query.get("srsearch", [""])[0].lower()
            if search == "haswbstatement:p4947=438631":
                name = "search_P4947_438631.json"
            else:
                name = "search_dune.json" if search.startswith("dune ") else None
        elif action == "wbgetentities":
            props, ids = query.get("props", [""])[0], query.get("ids", [""])[0]
            if "claims" in props:
                name = {"Q37550044": "entity_Q37550044.json", "Q190192": "entity_Q190192_novel.json"}.get(ids)
            elif ids == "Q7934":
                name = "labels_Q7934_author.json"
            else:
                name = "labels_dune.json" if "descriptions" in props else "people_Q37550044.json"
        else:
            name = None
        body = (FIXTURES / "wikidata" / name).read_bytes() if name else b'{"query": {"search": []}, "entities": {}}'
        self.send_bytes(body, "application/json; charset=utf-8")

    def send_item(self, volume_id):
        for name in SEARCHES.values():
            for item in json.loads((FIXTURES / "googlebooks" / name).read_text(encoding="utf-8")).get("items", []):
                if item.get("id") == volume_id:
                    body = GOOGLE_COVER_HOST.sub(self.server.base_url + "/gcovers", json.dumps(item))
                    return self.send_bytes(body.encode(), "application/json; charset=UTF-8")
        self.send_error(404)

    def send_bytes(self, body, content_type):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
