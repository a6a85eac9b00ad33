"""Scan a book's barcode from a photo on a phone: choose the photo, confirm the book, find it on the shelf; and the
page that helps when a photo has no barcode."""
import pathlib
import subprocess
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import capture_images as images
from conftest import SERVER
from helpers import check_page, click_and_wait

NO_BARCODE = pathlib.Path(__file__).resolve().parents[1] / "Fixtures" / "images" / "Portrait_6.jpg"
ISBN = "9780140446043"  # The Complete Essays, known to the fake Google Books


def register(driver, server):
    """A new account, made on the command line (the suite's sign-ups from one address would reach the hourly
    limit), then signed in through the page."""
    username = f"scanner{uuid.uuid4().hex[:8]}"
    subprocess.run([str(SERVER["binary"]), "user", "add", username, "--email", f"{username}@example.com",
                    "--display-name", "Sam Scanner"], input="a long enough password\n", text=True, check=True,
                   env=SERVER["env"], capture_output=True)
    driver.get(server + "/login")
    driver.find_element(By.ID, "login").send_keys(username)
    driver.find_element(By.ID, "password").send_keys("a long enough password")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action^='/login'] button[type=submit]"))


def test_scan_a_barcode_confirm_and_find_the_book_on_the_shelf(server, browser, tmp_path):
    driver = browser
    register(driver, server)
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "scan its barcode"))
    check_page(driver, "60-scan")
    photo = tmp_path / "back-cover.jpg"
    photo.write_bytes(images.book_photo([ISBN], angle=90, blur=0.8))
    file_input = driver.find_element(By.ID, "photo")
    # Take a photo (the camera), or choose one already taken (the photo library): both are offered.
    assert file_input.get_attribute("accept") == "image/*"
    assert file_input.get_attribute("capture") is None
    assert driver.find_element(By.ID, "photo-camera").get_attribute("capture") == "environment"
    file_input.send_keys(str(photo))
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/scan'] button[type=submit]"))

    assert driver.current_url.endswith(f"/scan/books?isbn={ISBN}")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Is this the book?"
    assert "The Complete Essays" in driver.find_element(By.CSS_SELECTOR, ".result-title").text
    check_page(driver, "61-scan-confirm")
    Select(driver.find_element(By.ID, f"shelf-{ISBN}")).select_by_visible_text("Reading")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form.add-to-shelf button[type=submit]"))

    assert "Already on your Reading shelf" in driver.find_element(By.CSS_SELECTOR, ".in-library").text
    driver.get(server + "/shelves/reading")
    assert "The Complete Essays" in driver.page_source
    check_page(driver, "62-shelf-after-scan")


def test_a_photo_without_a_barcode_helps_and_the_isbn_can_be_typed(server, browser):
    driver = browser
    register(driver, server)
    driver.get(server + "/scan")
    driver.find_element(By.ID, "photo").send_keys(str(NO_BARCODE))
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/scan'] button[type=submit]"))
    summary = driver.find_element(By.CSS_SELECTOR, ".error-summary").text
    assert "No ISBN barcode found" in summary and "closer" in summary and "shop barcode" not in summary
    check_page(driver, "63-scan-nothing-found")

    driver.find_element(By.ID, "isbn").send_keys("978-0-14-044604-4")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/scan/books'] button[type=submit]"))
    assert driver.find_element(By.ID, "isbn").get_attribute("value") == "978-0-14-044604-4"
    assert "not an ISBN" in driver.find_element(By.ID, "isbn-error").text
    field = driver.find_element(By.ID, "isbn")
    field.clear()
    field.send_keys("978-0-14-044604-3")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/scan/books'] button[type=submit]"))
    assert "The Complete Essays" in driver.page_source
