"""At home on a phone (issue 26): every page links a valid web app manifest whose icons load (any and maskable, PNG
and SVG), so "Add to Home Screen" gives a Shelfed icon; and with the phone's dark setting the pages turn dark and pass
axe's colour-contrast check. Screenshots of home and a book page in both themes are saved for a person to look at."""
import re
import struct
import uuid

import pytest
import requests
from conftest import SCREENSHOTS
from helpers import axe_violations, signed_in_session


@pytest.fixture(scope="module")
def reader(server):
    """A signed-in session with a book on each shelf, one with a rating and a review."""
    session, token = signed_in_session(server, f"night{uuid.uuid4().hex[:8]}", "Nell Night")
    book = None
    for title, shelf in (("Moonlit Margins", "read"), ("The Night Ferry", "reading"), ("Lanterns Later", "want_to_read")):
        answer = session.post(server + "/books", data={"_csrf": token, "title": title, "authors": "Ada Dark",
                                                        "page_count": "320", "shelf": shelf}, allow_redirects=False)
        book = book or answer.headers["location"].split("?")[0]
    session.post(server + book + "/review", data={"_csrf": token, "rating": "4.5", "review": "Read by lamplight."})
    return session, book


def _png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_is_linked_valid_and_its_icons_load(server, reader):
    session, _ = reader
    home = session.get(server + "/").text
    assert '<link rel="manifest" href="/static/manifest.json">' in home
    assert '<link rel="apple-touch-icon" href="/static/img/apple-touch-icon.png">' in home
    manifest = requests.get(server + "/static/manifest.json").json()
    assert manifest["name"] == "Shelfed" and manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"]) and re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    purposes = {icon["purpose"] for icon in manifest["icons"]}
    assert purposes == {"any", "maskable"}
    sizes = set()
    for icon in manifest["icons"] + [{"src": "/static/img/apple-touch-icon.png", "type": "image/png", "sizes": "180x180"}]:
        answer = requests.get(server + icon["src"])
        assert answer.status_code == 200, icon["src"]
        if icon["type"] == "image/png":
            width, height = _png_size(answer.content)
            assert f"{width}x{height}" == icon["sizes"], icon["src"]
            sizes.add(width)
        else:
            assert answer.content.lstrip().startswith(b"<svg"), icon["src"]
    assert {192, 512} <= sizes


PAGES = ["/", "{book}", "/shelves", "/shelves/reading", "/profile", "/profile/edit", "/search", "/lists", "/house"]


def test_dark_pages_follow_the_phone_and_keep_their_contrast(server, browser, reader):
    session, book = reader
    driver = browser
    driver.set_script_timeout(120)
    driver.get(server + "/health")
    for cookie in session.cookies:
        driver.add_cookie({"name": cookie.name, "value": cookie.value, "path": "/"})
    for scheme in ("light", "dark"):
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        for name, path in (("home", "/"), ("book", book)):
            driver.get(server + path)
            driver.save_screenshot(str(SCREENSHOTS / f"{driver.viewport_name}-{scheme}-{name}.png"))
    problems = []
    for path in PAGES:
        driver.get(server + path.format(book=book))
        background = driver.execute_script("return getComputedStyle(document.documentElement).backgroundColor")
        channels = [int(value) for value in re.findall(r"\d+", background)[:3]]
        if sum(channels) > 3 * 80:
            problems.append(f"{path}: the page stays light in the dark theme ({background})")
        for violation in axe_violations(driver, tags=["wcag2aa"]):
            if violation["id"] == "color-contrast":
                problems.append(f"{path}: {[node['target'] for node in violation['nodes']][:4]}")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    assert not problems, "\n".join(problems)
