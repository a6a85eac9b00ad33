"""On a phone and a desktop: update progress from the home page in one tap, see the bar, and find the update in the
book's journal; a page past the last is refused with the number kept."""
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from helpers import check_page, click_and_wait
from test_scan_flow import register


def test_update_progress_from_home_and_read_the_journal(server, browser):
    driver = browser
    register(driver, server)
    title = f"Middlemarch {uuid.uuid4().hex[:4]}"
    driver.get(server + "/books/new")
    driver.find_element(By.ID, "title").send_keys(title)
    driver.find_element(By.ID, "page_count").send_keys("880")
    Select(driver.find_element(By.ID, "shelf")).select_by_value("reading")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type=submit]"))

    driver.get(server + "/")
    item = driver.find_element(By.CSS_SELECTOR, ".in-progress li")
    item.find_element(By.CSS_SELECTOR, "input[name=page]").send_keys("220")
    click_and_wait(driver, item.find_element(By.CSS_SELECTOR, ".progress-update button"))
    assert "Saved your progress." in driver.page_source
    assert "Page 220 of 880 · 25 %" in driver.find_element(By.CSS_SELECTOR, ".in-progress").text
    check_page(driver, "72-home-progress")

    click_and_wait(driver, driver.find_element(By.LINK_TEXT, title))
    assert "Page 220" in driver.find_element(By.CSS_SELECTOR, ".journal").text
    page = driver.find_element(By.ID, "page")
    page.send_keys("900")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form.progress-form button[type=submit]"))
    assert "This book has 880 pages." in driver.page_source
    assert driver.find_element(By.ID, "page").get_attribute("value") == "900"
    check_page(driver, "73-book-progress-refused")
