"""Every main page at phone and desktop sizes, with and without covers and with a 300-character title, holds its
layout: no sideways scrolling, no text squeezed into a column too narrow to read, tap targets of 44 px, and no
serious or critical axe violation (WCAG 2.2 rules included). Screenshots are saved for a person to look at."""
import datetime
import pathlib
import subprocess
import uuid

import pytest
from conftest import SCREENSHOTS, SERVER
from helpers import axe_violations, signed_in_session

LONG_TITLE = ("An Extraordinarily Long and Winding Account of Everything That Happened in the Lighthouse Between the "
              "Autumn Storms and the Spring Thaw, Including Several Digressions About Gulls, Lamps, Letters Never "
              "Sent, and the Keeper's Unreasonable Fondness for Marmalade, Told in Full at Last") [:300]


@pytest.fixture(scope="module")
def library(server):
    """A signed-in session whose library has books with and without covers, a rating, a review and a long title."""
    name = f"layout{uuid.uuid4().hex[:8]}"
    session, token = signed_in_session(server, name, "Layla Out")
    books = {}
    for volume, shelf in (("gCtazG4ZXlQC", "reading"), ("0yNhEAAAQBAJ", "read")):
        answer = session.post(server + "/search/add", data={"_csrf": token, "volume_id": volume, "shelf": shelf},
                              allow_redirects=False)
        books.setdefault("cover", answer.headers["location"].split("?")[0])
    for title, shelf in ((LONG_TITLE, "want_to_read"), ("Plainly Without a Cover", "read"),
                         ("Another Uncovered Book With a Reasonably Long Name", "reading")):
        answer = session.post(server + "/books", data={
            "_csrf": token, "title": title, "authors": "Pat Writer, Sam Second-Author", "shelf": shelf},
            allow_redirects=False)
        books.setdefault("long" if title == LONG_TITLE else "plain", answer.headers["location"].split("?")[0])
    session.post(server + books["plain"] + "/review", data={"_csrf": token, "rating": "3.75", "review": "Good."})
    session.post(server + books["plain"] + "/favourite", data={"_csrf": token, "favourite": "1"})
    books["plain_id"] = books["plain"].rsplit("/", 1)[1]
    # A series, so the series pages and the book page's "Book 2 of …" line are laid out too.
    session.post(server + books["plain"] + "/edit", data={
        "_csrf": token, "title": "Plainly Without a Cover", "authors": "Pat Writer, Sam Second-Author",
        "series": "The Layout Cycle", "series_position": "2.5"})
    # A list holding a long title and a book with a cover, so the list pages are laid out with both.
    made = session.post(server + "/lists", data={"_csrf": token, "name": "Layout picks",
                                                 "description": "Books for checking the layout."},
                        allow_redirects=False)
    books["list"] = made.headers["location"].split("?")[0]
    list_id = books["list"].rsplit("/", 1)[1]
    for path in (books["long"], books["cover"], books["plain"]):
        session.post(server + path + "/lists", data={"_csrf": token, "list": list_id})
    # The household's shared pages (issue 25): a shared photo and list, and a house challenge, which only the admin
    # sets (the suite's server has many accounts; this one is made admin as the household flow does).
    subprocess.run([str(SERVER["binary"]), "user", "make-admin", name], check=True, env=SERVER["env"],
                   capture_output=True)
    session.post(server + "/profile/sharing", data={"_csrf": token, "shares": "1"})
    session.post(server + f"/lists/{list_id}/share", data={"_csrf": token, "shared": "1"})
    photo = (pathlib.Path(__file__).resolve().parents[1] / "Fixtures" / "images" / "Landscape_1.jpg").read_bytes()
    uploaded = session.post(server + books["plain"] + "/photos", files=[
        ("_csrf", (None, token)), ("page_number", (None, "12")),
        ("comment", (None, "The line about the lighthouse keeper's long winter.")),
        ("photo", ("page.jpg", photo, "image/jpeg"))], allow_redirects=False)
    books["photo_id"] = uploaded.headers["location"].split("?")[0].rsplit("/", 1)[1]
    session.post(server + f"/photos/{books['photo_id']}/share", data={"_csrf": token, "shared": "1"})
    session.post(server + "/household/challenge", data={"_csrf": token, "measure": "books", "goal": "24"})
    books["list_id"] = list_id
    return session, books


PAGES = {
    "home": "/",
    "shelves": "/shelves",
    "shelf-reading": "/shelves/reading",
    "favourites": "/favourites",
    # The toast after moving a book to Read from a card: what happened, when it was finished, and Undo.
    "shelves-toast": "/shelves?done=moved&book={plain_id}&from=want_to_read&ask=finished",
    "book-cover": "{cover}",
    "book-plain": "{plain}",
    "book-long-title": "{long}",
    "book-remove": "{long}/remove",
    "book-edit": "{cover}/edit",
    "series-index": "/series",
    "series": "/series?name=The%20Layout%20Cycle",
    "genres": "/genres",
    "lists": "/lists",
    "list": "{list}",
    "list-edit": "{list}/edit",
    "list-delete": "{list}/delete",
    "book-lists": "{long}/lists",
    "house-library": "/house",
    "house-feed": "/house/feed",
    "house-list": "/house/lists/{list_id}",
    "house-photo": "/house/photos/{photo_id}",
    "photo": "/photos/{photo_id}",
    "house-challenge": "/household/challenge",
    "year-in-review": f"/profile/year/{datetime.date.today().year}",
    "shelves-filtered": "/shelves?author=Pat&year_from=1900&rating=3&owned=0",
    "photo-new": "{plain}/photos/new",
    "new-book": "/books/new",
    "search": "/search?q=harry+potter",
    "search-empty": "/search",
    "library-search": "/library/search?q=cover",
    "quotes": "/quotes",
    "scan": "/scan",
    "shelf-scan": "/scan/shelf",
    "profile": "/profile",
    "profile-edit": "/profile/edit",
    "devices": "/profile/devices",
    "import": "/import",
    "not-found": "/books/999999",
    "forgot-password": "/login/forgot",
}

# What a finger needs: WCAG 2.5.5's 44 CSS px, on every control that is not a link inside running text.
TAP_TARGETS_SCRIPT = """
const small = [];
for (const element of document.querySelectorAll(
        'button, select, textarea, input:not([type=hidden]):not([type=radio]):not([type=checkbox]), '
        + 'a.button, nav a, .chip, .pagination a, label.star-choice')) {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    if (box.width === 0 || style.visibility === 'hidden' || element.closest('.visually-hidden')) continue;
    if (box.height < 44 - 0.5 || box.width < 44 - 0.5) {
        small.push(`${element.tagName.toLowerCase()}.${element.className} "${(element.textContent || element.name
            || '').trim().slice(0, 30)}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
}
return small;
"""

# A box narrower than 120 px whose words are broken onto separate lines (a title squeezed beside its cover).
NARROW_TEXT_SCRIPT = """
const narrow = [];
for (const element of document.querySelectorAll('main h1, main h2, main h3, main p, main li, main dd, main a, main span, main label, main button')) {
    const text = (element.innerText || '').trim();
    if (!text.includes(' ') || element.closest('.visually-hidden')) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.width >= 120) continue;
    // Lines the words actually take: the distinct tops of the visible text's line boxes (text clipped to 1 px for
    // screen readers only is not a line anyone sees).
    const tops = new Set();
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentElement.closest('.visually-hidden') || !node.textContent.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) {
            if (rect.width > 1 && rect.height > 1) tops.add(Math.round(rect.top));
        }
    }
    if (tops.size > 1) {
        narrow.push(`${element.tagName.toLowerCase()}.${element.className} "${text.slice(0, 30)}" ${Math.round(box.width)}px, ${tops.size} lines`);
    }
}
return narrow;
"""


def test_every_main_page_holds_its_layout(server, browser, library):
    session, books = library
    driver = browser
    # axe's WCAG 2.2 rules over a long page take seconds on a busy two-core machine.
    driver.set_script_timeout(120)
    driver.get(server + "/health")
    for cookie in session.cookies:
        driver.add_cookie({"name": cookie.name, "value": cookie.value, "path": "/"})
    problems = []
    for name, path in PAGES.items():
        driver.get(server + path.format(**books))
        driver.save_screenshot(str(SCREENSHOTS / f"{driver.viewport_name}-layout-{name}.png"))
        overflow = driver.execute_script(
            "return [document.documentElement.scrollWidth, window.innerWidth]")
        if overflow[0] > overflow[1]:
            problems.append(f"{name}: page is {overflow[0]} px wide in a {overflow[1]} px window")
        for small in driver.execute_script(TAP_TARGETS_SCRIPT):
            problems.append(f"{name}: tap target under 44 px: {small}")
        for narrow in driver.execute_script(NARROW_TEXT_SCRIPT):
            problems.append(f"{name}: text squeezed under 120 px: {narrow}")
        for violation in axe_violations(driver):
            if violation.get("impact") in {"serious", "critical"} or violation["id"] == "target-size":
                targets = [node["target"] for node in violation["nodes"]][:3]
                problems.append(f"{name}: axe {violation['id']} ({violation['impact']}): {targets}")
    assert not problems, "\n".join(problems)


def test_signed_in_error_pages_keep_the_navigation(server, browser, library):
    session, books = library
    driver = browser
    driver.get(server + "/health")
    for cookie in session.cookies:
        driver.add_cookie({"name": cookie.name, "value": cookie.value, "path": "/"})
    for path in ("/books/999999", "/no/such/page", "/photos/999999"):
        driver.get(server + path)
        assert driver.execute_script("return document.querySelectorAll('nav.tabs a').length") == 4, path
        assert "Sign out" in driver.page_source, path
