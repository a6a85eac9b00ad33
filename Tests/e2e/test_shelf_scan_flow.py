"""A whole shelf from one photo on a phone: the fake Gemini lists three spines (a sure one with its ISBN, a spine
reading only "Harry Potter", and a weak guess with a made-up ISBN); the review page shows them in shelf order with
only the sure one ticked, the user ticks the second after looking, and "Add selected" puts both on the shelf."""
import pathlib

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from helpers import check_page, click_and_wait
from test_scan_flow import register

SHELF_PHOTO = pathlib.Path(__file__).resolve().parents[1] / "Fixtures" / "images" / "Landscape_1.jpg"


def test_scan_a_shelf_review_and_add_the_sure_ones(server, browser):
    driver = browser
    register(driver, server)
    driver.get(server + "/scan")
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Scan a shelf"))
    assert driver.find_element(By.TAG_NAME, "h1").text == "Scan a shelf"
    assert "only when you press the button" in driver.page_source
    check_page(driver, "66-shelf-scan")
    driver.find_element(By.ID, "photo").send_keys(str(SHELF_PHOTO))
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/scan/shelf'] button[type=submit]"))

    # The scan runs in the background; its page refreshes itself until the list is ready.
    WebDriverWait(driver, 30).until(
        lambda d: d.find_element(By.TAG_NAME, "h1").text in ("Books on your shelf", "The shelf could not be read"))
    assert driver.find_element(By.TAG_NAME, "h1").text == "Books on your shelf"
    entries = driver.find_elements(By.CSS_SELECTOR, "ol.results > li")
    assert len(entries) == 3
    seen = [entry.find_element(By.CSS_SELECTOR, ".muted").text for entry in entries]
    assert "The Complete Essays" in seen[0] and "Harry Potter" in seen[1] and "A Book Nobody Has" in seen[2]
    boxes = [entry.find_elements(By.CSS_SELECTOR, "input[type=checkbox]") for entry in entries]
    assert boxes[0] and boxes[0][0].is_selected()
    # "Harry Potter" matched the seventh book by title alone: offered, not ticked, with a search to check it.
    assert boxes[1] and not boxes[1][0].is_selected()
    assert "weak-match" in entries[1].get_attribute("class")
    assert entries[1].find_element(By.LINK_TEXT, "Not this one? Search").get_attribute("href").startswith(server)
    assert "weak-match" in entries[2].get_attribute("class")
    assert not boxes[2]
    assert "No matching book was found" in entries[2].text
    check_page(driver, "67-shelf-scan-review")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", boxes[1][0])
    boxes[1][0].click()
    assert boxes[1][0].is_selected()

    Select(driver.find_element(By.ID, "shelf")).select_by_visible_text("Want to read")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form.shelf-review button[type=submit]"))
    added = driver.find_elements(By.CSS_SELECTOR, ".in-library")
    assert len(added) == 2
    check_page(driver, "68-shelf-scan-added")
    driver.get(server + "/shelves/want-to-read")
    assert "The Complete Essays" in driver.page_source
    assert "Harry Potter" in driver.page_source
    assert "A Book Nobody Has" not in driver.page_source
