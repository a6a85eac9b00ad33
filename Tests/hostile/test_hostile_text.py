"""Hostile text through every form field and query parameter that a page shows again (DESIGN §13): each page is
parsed and compared with the same page for a harmless value; no element or attribute may appear or vanish, no
script element or event handler may exist, and no link may point at javascript:."""
import html
import html.parser
import re
from collections import Counter

import pytest
import requests

from conftest import TOKEN, location_path

HARMLESS = "harmless words"
MEGABYTE = "m" * 1_000_000
CORPUS = [
    'x"\u0301 autofocus onfocus=alert(document.cookie) x="',
    "x'\u0301 autofocus onfocus=alert(1) x='",
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "'><svg onload=alert(1)>",
    "javascript:alert(1)",
    "\u202e\u2066bidi override\u2069\u202c",
    "nul\x00byte",
    "9223372036854775807",
    "-1",
    "+1",
    "1e3",
    "\u0663\u0664",
]


OWN_SCRIPT = re.compile(r"/static/js/[a-z-]+\.js")


class Structure(html.parser.HTMLParser):
    """Every element with its attribute names, plus anything that could run script."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elements = Counter()
        self.dangers = []
        self.in_script = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.elements[(tag, tuple(sorted(name for name, _ in attrs)))] += 1
        if tag in ("iframe", "object", "embed", "base"):
            self.dangers.append(tag)
        if tag == "script":
            # Only the project's own files, by a fixed path (progressive enhancement); nothing inline, nothing else.
            source = dict(attrs).get("src") or ""
            if not OWN_SCRIPT.fullmatch(source) or set(dict(attrs)) - {"src", "defer"}:
                self.dangers.append(f"script {source!r}")
            self.in_script = True
        for name, value in attrs:
            if name.startswith("on"):
                self.dangers.append(f"{tag} {name}")
            if name in ("href", "src", "action", "formaction") and (value or "").strip().lower().startswith(
                    "javascript:"):
                self.dangers.append(f"{tag} {name}={value}")

    def handle_endtag(self, tag):
        if tag == "script":
            self.in_script = False

    def handle_data(self, data):
        if self.in_script and data.strip():
            self.dangers.append(f"script body {data[:40]!r}")


# What a search ranked (stored books, not the reflected value): "Search my library" and "Search my quotes" rank by
# meaning, and the search page offers books close in meaning when Google finds nothing, so any two queries may find
# different books. Left out of the structural comparison only; dangers are looked for everywhere.
RESULTS = re.compile(r'<ol class="results text-results">.*?</ol>|<p class="(?:list-summary|muted ranked-by)">.*?</p>'
                     r'|<section class="(?:empty-state|meaning-matches)"[^>]*>.*?</section>', re.S)


def same_structure(page, harmless_page, what):
    assert not Structure(page.text).dangers, f"{what}: {Structure(page.text).dangers}"
    hostile, harmless = Structure(RESULTS.sub("", page.text)), Structure(RESULTS.sub("", harmless_page.text))
    assert hostile.elements == harmless.elements, (
        f"{what}: elements differ: {(hostile.elements - harmless.elements) + (harmless.elements - hostile.elements)}")


@pytest.mark.parametrize("value", CORPUS + [MEGABYTE], ids=lambda v: repr(v[:24]))
def test_reflected_query_values(server, alice, value):
    for path, query in [("/books/new", {"title": value, "authors": value, "isbn": value}),
                        ("/search", {"q": value}), ("/search", {"q": value, "field": "title"}),
                        ("/shelves", {"sort": value, "order": value, "page": value}),
                        ("/quotes", {"q": value}), ("/library/search", {"q": value}), ("/scan/books", {"isbn": value}),
                        ("/series", {"name": value})]:
        page = alice.get(path, params=query)
        if len(value) > 100_000 and page.status_code in (400, 414, 431):
            # A megabyte of URL is refused before any handler reads it; the refusal must still be harmless.
            assert not Structure(page.text).dangers
            continue
        same_structure(page, alice.get(path, params={k: HARMLESS for k in query}), f"{path} {query.keys()}")
        assert server.alive()
    visitor = requests.Session()
    # A `next` that is not a plain same-site path is dropped, so either page shape is right, and nothing else.
    hostile = visitor.get(server.base + "/login", params={"next": "/" + value})
    if len(value) > 100_000 and hostile.status_code in (400, 414, 431):
        assert not Structure(hostile.text).dangers and server.alive()
        return
    kept = visitor.get(server.base + "/login", params={"next": "/harmless"})
    dropped = visitor.get(server.base + "/login", params={"next": "//elsewhere"})
    expected = kept if Structure(hostile.text).elements == Structure(kept.text).elements else dropped
    same_structure(hostile, expected, "/login?next=")
    assert server.alive()


@pytest.mark.parametrize("value", CORPUS + [MEGABYTE], ids=lambda v: repr(v[:24]))
def test_shelf_filters(server, alice, value):
    # A filter value is shown back (a chip, the form) or ignored when out of bounds, so the page's shape depends on
    # the value: here only that nothing is injected and the server stays up.
    page = alice.get("/shelves", params={"author": value, "category": value, "language": value, "format": value})
    assert page.status_code in (200, 400, 414, 431), page.status_code
    assert not Structure(page.text).dangers
    assert server.alive()


@pytest.mark.parametrize("value", CORPUS, ids=lambda v: repr(v[:24]))
def test_stored_book_text(server, alice, value):
    if "\x00" in value:  # control characters are refused in titles and names: the form comes back instead
        answer = alice.post("/books", {"title": value, "authors": value})
        assert answer.status_code == 422 and not Structure(answer.text).dangers
        return

    def pages_for(text):
        book = alice.add_book(text, authors=text, publisher=text, description=text, series=text, shelf="reading")
        paths = ["/", "/shelves", "/shelves/reading", "/favourites", "/books/{}", "/books/{}/remove", "/profile",
                 "/series"]
        pages = {path: alice.get(path.format(book)) for path in paths}
        assert alice.post(f"/books/{book}/remove", {}, allow_redirects=False).status_code == 303
        return pages

    hostile, harmless = pages_for(value), pages_for(HARMLESS)
    for path in hostile:
        assert hostile[path].status_code == 200, path
        same_structure(hostile[path], harmless[path], path)
    assert server.alive()


@pytest.mark.parametrize("value", CORPUS, ids=lambda v: repr(v[:24]))
def test_list_names_and_descriptions(server, alice, value):
    book = alice.add_book(f"List target {abs(hash(value))}")

    def pages_for(name, description):
        made = alice.post("/lists", {"name": name, "description": description}, allow_redirects=False)
        if made.status_code == 422:  # too long or with control characters: the form again, the text kept
            assert not Structure(made.text).dangers
            return None
        assert made.status_code == 303, made.status_code
        path = location_path(made)
        alice.post(f"/books/{book}/lists", {"list": path.rsplit("/", 1)[1]})
        pages = {name: alice.get(target) for name, target in [
            ("index", "/lists"), ("list", path), ("edit", path + "/edit"), ("delete", path + "/delete"),
            ("book", f"/books/{book}"), ("choices", f"/books/{book}/lists")]}
        assert alice.post(path + "/delete", {}, allow_redirects=False).status_code == 303
        return pages

    hostile = pages_for(value[:100], value)
    if hostile is not None:
        harmless = pages_for(HARMLESS, HARMLESS)
        for name in hostile:
            assert hostile[name].status_code == 200, name
            same_structure(hostile[name], harmless[name], f"list {name}")
    assert alice.post(f"/books/{book}/remove", {}, allow_redirects=False).status_code == 303
    assert server.alive()


@pytest.mark.parametrize("value", CORPUS, ids=lambda v: repr(v[:24]))
def test_copy_places_and_borrowers(server, alice, value):
    book = alice.add_book(f"Lending target {abs(hash(value))}")
    alice.post(f"/books/{book}/copy", {"owned": "1", "location": value[:100]})
    lent = alice.post(f"/books/{book}/lend", {"name": value[:100]}, allow_redirects=False)
    assert lent.status_code in (303, 422), lent.status_code
    assert not Structure(lent.text).dangers
    for path in (f"/books/{book}", "/house", "/"):
        page = alice.get(path)
        assert page.status_code == 200 and not Structure(page.text).dangers, path
    assert alice.post(f"/books/{book}/remove", {}, allow_redirects=False).status_code == 303
    assert server.alive()


@pytest.mark.parametrize("value", CORPUS, ids=lambda v: repr(v[:24]))
def test_invitation_notes(server, alice, value):
    if alice.get("/household").status_code == 404:
        pytest.skip("alice is not this server's admin")
    made = alice.post("/household/invitations", {"note": value, "days": "1"})
    assert made.status_code in (201, 422), made.status_code
    assert not Structure(made.text).dangers
    listed = alice.get("/household")
    assert listed.status_code == 200 and not Structure(listed.text).dangers
    # Revoked again, so the open invitations stay few.
    for revoke in re.findall(r'action="(/household/invitations/\d+/revoke)"', listed.text):
        alice.post(revoke, {})
    assert server.alive()


@pytest.mark.parametrize("value", CORPUS + [MEGABYTE], ids=lambda v: repr(v[:24]))
def test_rejected_forms_keep_the_text(server, alice, value):
    book = alice.add_book(f"Form target {len(value)} {abs(hash(value))}")
    forms = [
        ("/books", {"title": HARMLESS, "page_count": value, "published_date": value, "isbn": value}),
        (f"/books/{book}/dates", {"started_at": value, "finished_at": value}),
        ("/profile/edit", {"display_name": value if len(value) > 80 else value + "x" * 81}),
    ]
    for path, fields in forms:
        if path == "/profile/edit":
            fields["email"] = "alice@example.com"
        answer = alice.post(path, fields)
        assert answer.status_code in (400, 413, 422), f"{path}: {answer.status_code}"
        if answer.status_code == 413:  # a megabyte is more than any form may carry: an error page, no form
            assert not Structure(answer.text).dangers
            continue
        harmless = alice.post(path, {name: "x" * 90 if name == "display_name" else "not valid" if name != "email"
                                     else fields[name] for name in fields})
        same_structure(answer, harmless, path)
        if len(value) < 1000 and "\x00" not in value:
            assert html.escape(value, quote=True).replace("&#x27;", "&#39;") in answer.text, path
    assert alice.post(f"/books/{book}/remove", {}, allow_redirects=False).status_code == 303
    assert server.alive()


@pytest.mark.parametrize("index", range(len(CORPUS)))
def test_sign_in_form_keeps_the_login(server, index):
    visitor = requests.Session()
    token = TOKEN.search(visitor.get(server.base + "/login").text).group(1)
    hostile = visitor.post(server.base + "/login", data={"_csrf": token, "login": CORPUS[index], "password": "x"})
    harmless = visitor.post(server.base + "/login",
                            data={"_csrf": token, "login": f"{HARMLESS} {index}", "password": "x"})
    assert hostile.status_code == 401
    same_structure(hostile, harmless, "/login")
    assert server.alive()
