"""The pages a household uses most, walked once against a running Shelfed.

Used by scripts/link_order.py to learn which functions the server runs, so the release link can place them
next to each other (see benchmarks/README.md, "Idle memory").
"""
import requests

from bench_server import register


def exercise(base):
    """Registers a user, adds and moves a book, and opens every main page once."""
    session, token = register(base)
    for path in ["/", "/shelves", "/shelves/want-to-read", "/books/new", "/favourites", "/profile", "/profile/edit",
                 "/search", "/static/css/app.css", "/no-such-page"]:
        session.get(base + path)
    session.post(base + "/books", data={"_csrf": token, "title": "Dune", "authors": "Frank Herbert",
                                        "isbn": "9780441172719", "page_count": "412", "shelf": "want_to_read"})
    session.post(base + "/books", data={"_csrf": token, "title": "", "isbn": "123"})
    session.get(base + "/books/1")
    session.post(base + "/books/1/shelf", data={"_csrf": token, "shelf": "reading"})
    session.post(base + "/books/1/favourite", data={"_csrf": token})
    session.post(base + "/books/1/shelf", data={"_csrf": token, "shelf": "read"})
    for path in ["/", "/shelves/read?sort=title&order=asc", "/shelves/read?sort=author&page=2", "/books/1",
                 "/books/1/photos", "/profile", "/books/1/remove", "/books/999"]:
        session.get(base + path)
    session.post(base + "/logout", data={"_csrf": token})
    session.get(base + "/login")
    session.get(base + "/shelves")
    login = requests.Session()
    login.get(base + "/login")
    login.post(base + "/login", data={"_csrf": login.cookies["shelfed_csrf"], "login": "bench",
                                      "password": "benchmark password"})
    login.get(base + "/")
