"""The book page on a phone and a desktop (issue 36, part 1): the first screen of a book on each shelf holds the
title, your stars (not on Want to read), the shelf with the one step it needs and the description's first lines, and
no form that does not fit the shelf; a star saves on one tap and Undo puts back the rating before; the rarely used
forms wait folded; a desktop shows two columns. Axe and no sideways scroll on each."""
import uuid

from selenium.webdriver.common.by import By

from helpers import check_page, click_and_wait, signed_in_session

DESCRIPTION = (
    "A winter world where nobody is man or woman for long, and an envoy who has come to ask them to join the "
    "worlds beyond the sky. He is tolerated, watched, and in the end trusted by one person alone, across a country "
    "of ice that no one crosses on foot in the dark of the year.\n"
    "Written in 1969, it won the Hugo and the Nebula.\nA third paragraph that only the curious read.")


def add(session, server, token, title, shelf):
    response = session.post(server + "/books", data={
        "_csrf": token, "title": title, "authors": "Ursula K. Le Guin", "page_count": "300", "shelf": shelf,
        "description": DESCRIPTION}, allow_redirects=False)
    return response.headers["Location"].split("?")[0]


def within_first_screen(driver, css):
    """Whether the first element matching `css` is shown and starts within the first screen."""
    found = driver.find_elements(By.CSS_SELECTOR, css)
    if not found or not found[0].is_displayed():
        return False
    return found[0].rect["y"] < driver.execute_script("return window.innerHeight")


def shown(driver, css):
    return any(element.is_displayed() for element in driver.find_elements(By.CSS_SELECTOR, css))


def test_the_first_screen_of_a_book_on_each_shelf(server, browser):
    session, token = signed_in_session(server, f"bookpage{uuid.uuid4().hex[:8]}", "Page Reader")
    paths = {shelf: add(session, server, token, f"The Left Hand of Darkness ({shelf})", shelf)
             for shelf in ("want_to_read", "reading", "read", "did_not_finish")}
    driver = browser
    driver.get(server + "/login")
    for cookie in session.cookies:
        driver.add_cookie({"name": cookie.name, "value": cookie.value, "path": "/"})

    for shelf, path in paths.items():
        driver.get(server + path)
        assert within_first_screen(driver, "h1"), shelf
        assert within_first_screen(driver, ".shelf-badge"), shelf
        assert within_first_screen(driver, ".description p"), shelf
        # The rest of the description waits behind "More".
        assert not shown(driver, ".description-more p"), shelf
        # Forms for another shelf's needs are not there; the rarely used ones are folded.
        assert not shown(driver, "#started_at") and not shown(driver, "#review") and not shown(driver, "#format")
        assert not driver.find_elements(By.CSS_SELECTOR, "#lent_on"), "lending is for a copy you own"
        assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"), shelf
        if shelf == "want_to_read":
            assert not driver.find_elements(By.CSS_SELECTOR, ".quick-rating"), "a book not read yet is not rated"
            assert not driver.find_elements(By.CSS_SELECTOR, "#page")
            assert not driver.find_elements(By.CSS_SELECTOR, "#started_at"), "no dates for a book not started"
            assert driver.find_element(By.CSS_SELECTOR, ".shelf-next").text == "Start reading"
            assert within_first_screen(driver, ".shelf-next")
        else:
            assert within_first_screen(driver, ".quick-rating"), shelf
        if shelf == "reading":
            assert within_first_screen(driver, "#page")
            assert driver.find_element(By.CSS_SELECTOR, ".shelf-next").text == "Finished"
            assert not shown(driver, "#note"), "a note and another day wait behind a disclosure"
        if shelf == "read":
            assert not driver.find_elements(By.CSS_SELECTOR, "#page")
            assert within_first_screen(driver, ".shelf-actions button")
            assert driver.find_element(By.CSS_SELECTOR, ".shelf-actions button").text == "Read it again"
        if shelf == "did_not_finish":
            assert driver.find_element(By.CSS_SELECTOR, ".shelf-next").text == "Pick it up again"
            assert shown(driver, "#stop_reason")
        if driver.viewport_name == "desktop":
            body = driver.find_element(By.CSS_SELECTOR, ".book-body").rect
            book = driver.find_element(By.CSS_SELECTOR, ".book-detail").rect
            assert body["x"] > book["x"] + book["width"], "two columns on a desktop"
            assert body["y"] < book["y"] + book["height"]
        check_page(driver, f"110-book-{shelf.replace('_', '-')}")

    # A title of one long word wraps instead of widening the page.
    long = add(session, server, token, "Hippopotomonstrosesquippedaliophobia" * 3, "reading")
    driver.get(server + long)
    assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    assert within_first_screen(driver, "#page")

    # "More" opens the rest of the description.
    driver.get(server + paths["reading"])
    more = driver.find_element(By.CSS_SELECTOR, ".description-more summary")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", more)
    more.click()
    assert shown(driver, ".description-more p")
    assert "A third paragraph" in driver.find_element(By.CSS_SELECTOR, ".description").text


def test_a_star_saves_on_one_tap_and_undo_puts_back_the_rating_before(server, browser):
    session, token = signed_in_session(server, f"stars{uuid.uuid4().hex[:8]}", "Star Reader")
    path = add(session, server, token, "Dune", "read")
    session.post(server + path + "/rating", data={"_csrf": token, "rating": "2.5"}, allow_redirects=False)
    driver = browser
    driver.get(server + "/login")
    for cookie in session.cookies:
        driver.add_cookie({"name": cookie.name, "value": cookie.value, "path": "/"})
    driver.get(server + path)
    assert driver.find_element(By.CSS_SELECTOR, ".quick-rating-summary").text == "2½ stars"

    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".quick-star[aria-label='Rate it 4 stars']"))
    toast = driver.find_element(By.CSS_SELECTOR, ".toast")
    assert "Rated Dune 4 stars." in toast.text
    assert len(driver.find_elements(By.CSS_SELECTOR, ".quick-star.is-on")) == 4
    assert driver.find_element(By.CSS_SELECTOR, ".quick-rating-summary").text == "4 stars"
    check_page(driver, "111-book-rated")

    click_and_wait(driver, toast.find_element(By.XPATH, ".//button[text()='Undo']"))
    assert driver.find_element(By.CSS_SELECTOR, ".quick-rating-summary").text == "2½ stars"
    assert "Rated Dune 2½ stars." in driver.find_element(By.CSS_SELECTOR, ".toast").text
    assert not driver.find_elements(By.XPATH, "//div[@class='toast']//button[text()='Undo']"), "no undo of the undo"

    # The star the rating is takes it off.
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".quick-star[aria-label='Rate it 3 stars']"))
    click_and_wait(driver, driver.find_element(
        By.CSS_SELECTOR, ".quick-star[aria-label='Take off your rating of 3 stars']"))
    assert "Took your rating off Dune." in driver.find_element(By.CSS_SELECTOR, ".toast").text
    assert not driver.find_elements(By.CSS_SELECTOR, ".quick-rating-summary")
    assert not driver.find_elements(By.CSS_SELECTOR, ".quick-star.is-on")
