"""Films and TV shows, first slice (issue 37): a film added by hand from the add page's "Film" switch, its page in
the words of watching ("Want to watch", "Watched it"), watched in one tap and rated with one more; the shelf's card
says "Watched"; a show's page offers "Start watching". Axe, no sideways scroll and a screenshot at both sizes."""
import uuid

from selenium.webdriver.common.by import By

from helpers import check_page, click_and_wait, signed_in_session


def sign_in_browser(driver, server, session):
    driver.get(server + "/login")
    for cookie in session.cookies:
        driver.add_cookie({"name": cookie.name, "value": cookie.value, "path": "/"})


def no_sideways_scroll(driver):
    return driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")


def test_a_film_added_by_hand_is_watched_and_rated(server, browser):
    session, _ = signed_in_session(server, f"films{uuid.uuid4().hex[:8]}", "Film Watcher")
    driver = browser
    sign_in_browser(driver, server, session)

    driver.get(server + "/books/new")
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Film"))
    assert driver.find_element(By.TAG_NAME, "h1").text == "Add a film"
    assert not driver.find_elements(By.ID, "isbn") and not driver.find_elements(By.ID, "page_count")
    assert driver.find_element(By.CSS_SELECTOR, "label[for='authors']").text == "Directed by"
    driver.find_element(By.ID, "title").send_keys("Dune: Part Two")
    driver.find_element(By.ID, "authors").send_keys("Denis Villeneuve")
    driver.find_element(By.ID, "published_date").send_keys("2024")
    driver.find_element(By.ID, "runtime").send_keys("two hours")
    check_page(driver, "370-add-film")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type='submit']"))
    # A running time in words is refused with the rest kept.
    assert "Enter the running time in minutes" in driver.find_element(By.ID, "runtime-error").text
    assert driver.find_element(By.ID, "title").get_attribute("value") == "Dune: Part Two"
    runtime = driver.find_element(By.ID, "runtime")
    runtime.clear()
    runtime.send_keys("166")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type='submit']"))

    assert driver.find_element(By.TAG_NAME, "h1").text == "Dune: Part Two"
    assert driver.find_element(By.CSS_SELECTOR, ".kind-line").text == "Film · 2024 · 2 h 46 min"
    assert driver.find_element(By.CSS_SELECTOR, ".authors").text == "Directed by Denis Villeneuve"
    assert "Want to watch" in driver.find_element(By.CSS_SELECTOR, ".shelf-badge").text
    watched = driver.find_element(By.CSS_SELECTOR, ".shelf-next")
    assert watched.text == "Watched it"
    assert no_sideways_scroll(driver)
    check_page(driver, "371-film-want-to-watch")

    click_and_wait(driver, watched)
    assert "Watched" in driver.find_element(By.CSS_SELECTOR, ".shelf-badge").text
    assert "to Watched" in driver.find_element(By.CSS_SELECTOR, ".toast").text
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".quick-star[aria-label='Rate it 4 stars']"))
    assert "Rated Dune: Part Two 4 stars." in driver.find_element(By.CSS_SELECTOR, ".toast").text
    assert driver.find_element(By.CSS_SELECTOR, ".quick-rating-summary").text == "4 stars"
    check_page(driver, "372-film-watched-rated")

    # Watched again on an earlier day: a second viewing, the first kept.
    day = driver.find_element(By.ID, "watched_on")
    driver.execute_script("arguments[0].value = '2025-12-24'", day)
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form.watch-again button"))
    assert "Another viewing is kept" in driver.find_element(By.CSS_SELECTOR, ".toast").text
    assert "seen 2 times" in driver.find_element(By.CSS_SELECTOR, ".shelf-line").text
    assert no_sideways_scroll(driver)
    check_page(driver, "375-film-watched-again")

    driver.get(server + "/shelves/read")
    badges = [badge.text for badge in driver.find_elements(By.CSS_SELECTOR, ".card .badge")]
    assert badges == ["Watched"]
    assert no_sideways_scroll(driver)
    check_page(driver, "373-shelf-with-film")

    driver.get(server + "/books/new?kind=show")
    assert driver.find_element(By.CSS_SELECTOR, "label[for='authors']").text == "Created by"
    assert not driver.find_elements(By.ID, "runtime"), "a show's episodes have the running times"
    driver.find_element(By.ID, "title").send_keys("Severance")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type='submit']"))
    assert driver.find_element(By.CSS_SELECTOR, ".kind-line").text == "TV show"
    assert driver.find_element(By.CSS_SELECTOR, ".shelf-next").text == "Start watching"
    check_page(driver, "374-show-want-to-watch")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".shelf-next"))
    assert "Watching" in driver.find_element(By.CSS_SELECTOR, ".shelf-badge").text
    assert not driver.find_elements(By.ID, "page"), "a show being watched has no page box"
    assert driver.find_element(By.CSS_SELECTOR, ".shelf-next").text == "Watched it"
