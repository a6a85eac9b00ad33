"""On a phone and a desktop (issue 36, shelf views): a shelf of 70 books as a dense list (fifteen rows and more to a
phone screen) and as a grid of covers (three a row on a phone); the choice holds on the next page and the next
shelf; a filter and paging work in each view; axe on each."""
import uuid

from selenium.webdriver.common.by import By

from helpers import check_page, click_and_wait, signed_in_session


def test_list_and_cover_views_with_paging_and_a_filter(server, browser):
    session, token = signed_in_session(server, f"views{uuid.uuid4().hex[:8]}", "View Reader")
    for number in range(70):
        author = "Grace Hopper" if number % 10 == 0 else "Ada Lovelace"
        session.post(server + "/books", data={"_csrf": token, "title": f"Volume {number:02d} of a Long Series",
                                              "authors": author, "shelf": "want_to_read"}, allow_redirects=False)
    driver = browser
    driver.get(server + "/login")
    for cookie in session.cookies:
        driver.add_cookie({"name": cookie.name, "value": cookie.value, "path": "/"})

    driver.get(server + "/shelves/want-to-read?sort=title&order=asc")
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "List"))
    rows = driver.find_elements(By.CSS_SELECTOR, ".book-row")
    assert len(rows) == 60
    row_height = rows[1].rect["y"] - rows[0].rect["y"]
    assert driver.execute_script("return window.innerHeight") / row_height >= 15, row_height
    assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    check_page(driver, "98-shelf-list")

    # The next page keeps the list; so does another shelf.
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "a[rel='next']"))
    assert len(driver.find_elements(By.CSS_SELECTOR, ".book-row")) == 10
    driver.get(server + "/shelves")
    assert driver.find_elements(By.CSS_SELECTOR, ".book-rows")

    # Covers, filtered by an author: seven tiles, three a row on a phone.
    driver.get(server + "/shelves/want-to-read?view=grid&author=Grace+Hopper")
    tiles = driver.find_elements(By.CSS_SELECTOR, ".cover-grid > li")
    assert len(tiles) == 7
    first_row = [tile for tile in tiles if abs(tile.rect["y"] - tiles[0].rect["y"]) < 2]
    if driver.viewport_name == "phone":
        assert len(first_row) == 3, len(first_row)
    else:
        assert len(first_row) >= 5, len(first_row)
    assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", tiles[0])
    check_page(driver, "99-shelf-covers")
    click_and_wait(driver, tiles[0].find_element(By.TAG_NAME, "a"))
    assert "/books/" in driver.current_url
    driver.get(server + "/shelves/want-to-read?view=cards")
    assert driver.find_elements(By.CSS_SELECTOR, "article.card")
