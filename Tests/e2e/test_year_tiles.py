"""On a phone and a desktop (issue 35): in the year in review, a finished book without a cover shows as a tile with
its title, and a long title is cut at its end only — its first words are inside the tile — with nothing wider than
the screen."""
import datetime
import uuid

from selenium.webdriver.common.by import By

from helpers import check_page, signed_in_session


def test_coverless_tiles_show_a_long_title_from_its_first_word(server, browser):
    name = f"tiles{uuid.uuid4().hex[:8]}"
    session, token = signed_in_session(server, name, "Tile Reader")
    title = ("The Extraordinarily Long and Winding Title of a Book That Nobody Could Ever Fit On A Small Square "
             "Tile Without Cutting Something Off Somewhere")
    added = session.post(server + "/books", data={"_csrf": token, "title": title, "shelf": "reading"})
    book = added.url.rstrip("/").rsplit("/", 1)[1].split("?")[0]
    today = datetime.date.today().isoformat()
    session.post(f"{server}/books/{book}/shelf", data={"_csrf": token, "shelf": "read"})
    session.post(f"{server}/books/{book}/dates", data={"_csrf": token, "started_at": today, "finished_at": today})
    driver = browser
    driver.get(server + "/login")
    for cookie in session.cookies:
        driver.add_cookie({"name": cookie.name, "value": cookie.value, "path": "/"})
    year = datetime.date.today().year
    driver.get(f"{server}/profile/year/{year}")
    tile = driver.find_element(By.CSS_SELECTOR, ".cover-mosaic .cover-tile")
    text = tile.find_element(By.CSS_SELECTOR, ".cover-tile-text")
    tile_box = driver.execute_script("return arguments[0].getBoundingClientRect().toJSON()", tile)
    text_box = driver.execute_script("return arguments[0].getBoundingClientRect().toJSON()", text)
    assert text_box["top"] >= tile_box["top"] - 0.5, (tile_box, text_box)
    assert text_box["bottom"] <= tile_box["bottom"] + 0.5, (tile_box, text_box)
    assert text.text.startswith("The Extraordinarily"), text.text
    assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    check_page(driver, "96-year-tiles")
