"""On a phone and a desktop (issue 24): put a book down as Did not finish with a reason, find it on its own tab; open
a genre from Genres, see the shelf narrowed to it, and take the filter off again — axe on each page."""
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from helpers import check_page, click_and_wait
from test_scan_flow import register


def test_did_not_finish_with_a_reason(server, browser):
    driver = browser
    register(driver, server)
    title = f"Ulysses {uuid.uuid4().hex[:4]}"
    driver.get(server + "/books/new")
    driver.find_element(By.ID, "title").send_keys(title)
    driver.find_element(By.ID, "page_count").send_keys("730")
    Select(driver.find_element(By.ID, "shelf")).select_by_value("reading")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type=submit]"))

    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".shelf-switch button[value='did_not_finish']"))
    section = driver.find_element(By.CSS_SELECTOR, ".book-stopped")
    assert "You stopped reading it on" in section.text
    section.find_element(By.ID, "stop_reason").send_keys("Lost in Dublin.")
    click_and_wait(driver, section.find_element(By.CSS_SELECTOR, "button[type=submit]"))
    assert "Saved: you did not finish this one." in driver.page_source
    assert driver.find_element(By.ID, "stop_reason").get_attribute("value") == "Lost in Dublin."
    check_page(driver, "74-did-not-finish")

    driver.get(server + "/shelves")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".shelf-tabs a[href='/shelves/did-not-finish']"))
    assert title in [card.text for card in driver.find_elements(By.CSS_SELECTOR, ".card-title")]
    check_page(driver, "75-did-not-finish-tab")


def test_a_genre_narrows_the_shelves_and_the_filter_comes_off(server, browser):
    driver = browser
    register(driver, server)
    driver.get(server + "/search?q=harry+potter")
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Harry Potter and the Deathly Hallows"))
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".shelf-switch button[value='want_to_read']"))
    driver.get(server + "/books/new")
    driver.find_element(By.ID, "title").send_keys("A book with no genre")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type=submit]"))

    driver.get(server + "/genres")
    check_page(driver, "76-genres")
    genre = driver.find_element(By.CSS_SELECTOR, ".genre-list .result-title a")
    name = genre.text
    click_and_wait(driver, genre)
    titles = [card.text for card in driver.find_elements(By.CSS_SELECTOR, ".card-title")]
    assert titles == ["Harry Potter and the Deathly Hallows"], titles
    chip = driver.find_element(By.CSS_SELECTOR, f".active-filters a[aria-label='Remove the filter Genre: {name}']")
    check_page(driver, "77-shelves-by-genre")
    click_and_wait(driver, chip)
    assert not driver.find_elements(By.CSS_SELECTOR, ".active-filters")
    assert len(driver.find_elements(By.CSS_SELECTOR, ".card-title")) == 2
