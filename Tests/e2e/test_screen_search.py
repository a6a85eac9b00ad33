"""Films and TV shows found and added (issue 37): the search in the header finds a show beside books, one tap puts it
on Watching with its creator, cast and TVmaze's credit, three episodes are watched, then the seasons, then it is
watched again; the film search's kind filter finds a film that Wikidata knows
(no TMDB token: the keyless mode) and adds it with its director and running time. Axe, no sideways scroll and a
screenshot at both sizes."""
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from helpers import check_page, click_and_wait, signed_in_session
from test_screen_titles import no_sideways_scroll, sign_in_browser


def test_a_show_and_a_film_are_found_and_added_without_a_token(server, browser):
    session, _ = signed_in_session(server, f"screen{uuid.uuid4().hex[:8]}", "Screen Finder")
    driver = browser
    sign_in_browser(driver, server, session)

    driver.get(server + "/")
    field = driver.find_element(By.CSS_SELECTOR, "form.topbar-search input[name='q']")
    field.send_keys("Severance")
    driver.execute_script("window.__shelfedOldPage = true")
    field.send_keys(Keys.ENTER)
    click_and_wait_for_load(driver)
    group = driver.find_element(By.ID, "find-titles")
    assert group.text == "Films and TV shows to add"
    assert no_sideways_scroll(driver)
    check_page(driver, "376-find-with-shows")
    add = driver.find_element(By.CSS_SELECTOR, "button[aria-label='Add Severance to Watching']")
    click_and_wait(driver, add)

    assert driver.find_element(By.TAG_NAME, "h1").text == "Severance"
    assert driver.find_element(By.CSS_SELECTOR, ".kind-line").text == "TV show · 2022 · 52 min episodes"
    assert driver.find_element(By.CSS_SELECTOR, ".authors").text == "Created by Dan Erickson"
    assert driver.find_element(By.CSS_SELECTOR, ".cast-line").text == "With Adam Scott, Britt Lower"
    assert "Watching" in driver.find_element(By.CSS_SELECTOR, ".shelf-badge").text
    assert "TVmaze" in driver.find_element(By.CSS_SELECTOR, ".provider-credit").text
    assert no_sideways_scroll(driver)
    check_page(driver, "377-show-from-tvmaze")

    # Three episodes (one from Up next, then up to the third), a whole season, then watched again.
    assert driver.find_element(By.CSS_SELECTOR, ".up-next p").text == "Up next: S1E1 Good News About Hell"
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".up-next button"))
    assert "Marked the episode watched." in driver.find_element(By.CSS_SELECTOR, ".toast").text
    click_and_wait(driver, driver.find_element(
        By.CSS_SELECTOR, "button[aria-label='Mark every episode up to S1E3 watched']"))
    assert driver.find_element(By.CSS_SELECTOR, ".up-next p").text == "Up next: S1E4 The You You Are"
    assert "3 of 7 episodes watched." in driver.find_element(By.CSS_SELECTOR, ".episodes").text
    assert no_sideways_scroll(driver)
    check_page(driver, "380-show-three-episodes")
    click_and_wait(driver, driver.find_element(By.PARTIAL_LINK_TEXT, "Season 2"))
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[text()='Mark Season 2 watched']"))
    click_and_wait(driver, driver.find_element(By.PARTIAL_LINK_TEXT, "Season 1"))
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[text()='Mark Season 1 watched']"))
    assert "All caught up: moved to Watched." in driver.find_element(By.CSS_SELECTOR, ".toast").text
    assert "Watched" in driver.find_element(By.CSS_SELECTOR, ".shelf-badge").text
    check_page(driver, "381-show-caught-up")
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[text()='Watch it again']"))
    assert "Viewing 2: 0 of 7 episodes watched." in driver.find_element(By.CSS_SELECTOR, ".episodes").text
    assert no_sideways_scroll(driver)
    check_page(driver, "382-show-watched-again")

    driver.get(server + "/titles/search?q=dune")
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Films"))
    results = driver.find_elements(By.CSS_SELECTOR, ".result")
    assert [r.find_element(By.CSS_SELECTOR, ".card-authors").text for r in results] == ["Film · 2021"]
    assert "Wikidata" in driver.find_element(By.CSS_SELECTOR, ".provider-credit").text
    assert no_sideways_scroll(driver)
    check_page(driver, "378-film-search")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "button[aria-label='Add Dune to Want to watch']"))
    assert driver.find_element(By.CSS_SELECTOR, ".kind-line").text == "Film · 2021 · 2 h 35 min"
    assert driver.find_element(By.CSS_SELECTOR, ".authors").text == "Directed by Denis Villeneuve"
    assert driver.find_element(By.CSS_SELECTOR, ".shelf-next").text == "Watched it"
    assert no_sideways_scroll(driver)
    check_page(driver, "379-film-from-wikidata")


def click_and_wait_for_load(driver):
    """Waits for the page a key press loaded (the old one was marked before the key went)."""
    WebDriverWait(driver, 10).until(
        lambda d: d.execute_script("return !window.__shelfedOldPage && document.readyState === 'complete'"))
