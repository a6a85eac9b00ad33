"""On a phone: upload a photo of a page, see its words appear on the photo's page, correct one, and find the
passage with Search my quotes."""
import time
import uuid

from selenium.webdriver.common.by import By

import capture_images as images
from helpers import check_page, click_and_wait
from test_scan_flow import register

LINES = ["Whenever I find myself growing grim about", "the mouth; whenever it is a damp, drizzly",
         "November in my soul, I account it high time", "to get to sea as soon as I can."]


def test_upload_a_quote_photo_see_its_words_and_search_them(server, browser, tmp_path):
    driver = browser
    register(driver, server)
    driver.get(server + "/books/new")
    driver.find_element(By.ID, "title").send_keys(f"Moby-Dick {uuid.uuid4().hex[:4]}")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type=submit]"))
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Add photo"))
    page = tmp_path / "page.jpg"
    page.write_bytes(images.text_photo(LINES, angle=1.0))
    driver.find_element(By.ID, "photo").send_keys(str(page))
    driver.find_element(By.ID, "page_number").send_keys("3")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[enctype='multipart/form-data'] button[type=submit]"))
    photo_url = driver.current_url

    # The words are read in the background; the page says so until they are there.
    deadline = time.time() + 60
    while not driver.find_elements(By.CSS_SELECTOR, ".photo-text"):
        assert time.time() < deadline, "the photo's words never appeared"
        assert "Reading the words on this page" in driver.page_source
        time.sleep(1)
        driver.get(photo_url)
    text = driver.find_element(By.CSS_SELECTOR, ".photo-text").text
    assert "drizzly" in text and "November" in text
    check_page(driver, "64-photo-with-words")

    field = driver.find_element(By.ID, "text")
    field.clear()
    field.send_keys("\n".join(LINES) + "\n(Ishmael, chapter 1)")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "section[aria-labelledby=edit-heading] form button[type=submit]"))
    assert "(Ishmael, chapter 1)" in driver.find_element(By.CSS_SELECTOR, ".photo-text").text

    driver.get(server + "/shelves")
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Search my quotes"))
    box = driver.find_element(By.ID, "q")
    box.send_keys("drizzly november")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/quotes'] button[type=submit]"))
    marks = [mark.text.lower() for mark in driver.find_elements(By.CSS_SELECTOR, ".passage mark")]
    assert "drizzly" in marks and "november" in marks
    assert "Page 3" in driver.find_element(By.CSS_SELECTOR, ".text-results").text
    check_page(driver, "65-quotes-search")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".text-results .result-title a"))
    assert driver.current_url == photo_url
