"""Attach a photo through the file input on a phone, submit, see the thumbnail, open it, see page and comment."""
import pathlib
import re
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from helpers import check_page, click_and_wait

PHOTO = pathlib.Path(__file__).resolve().parents[1] / "Fixtures" / "images" / "Landscape_6.jpg"


def test_upload_photo_with_page_and_comment(server, browser):
    driver = browser
    username = f"snapper{uuid.uuid4().hex[:8]}"
    driver.get(server + "/register")
    for field, value in (("username", username), ("display_name", "Sam Snapper"),
                         ("email", f"{username}@example.com"), ("password", "a long enough password")):
        driver.find_element(By.ID, field).send_keys(value)
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/register'] button[type=submit]"))

    driver.get(server + "/books/new")
    driver.find_element(By.ID, "title").send_keys("Dune")
    driver.find_element(By.ID, "page_count").send_keys("412")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type=submit]"))
    book_url = driver.current_url

    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Add photo"))
    check_page(driver, "30-photo-form")
    file_input = driver.find_element(By.ID, "photo")
    # Take a photo (the camera), or choose one already taken (the photo library): both are offered.
    assert file_input.get_attribute("accept") == "image/*"
    assert file_input.get_attribute("capture") is None
    assert driver.find_element(By.ID, "photo-camera").get_attribute("capture") == "environment"
    file_input.send_keys(str(PHOTO))
    driver.find_element(By.ID, "page_number").send_keys("42")
    driver.find_element(By.ID, "comment").send_keys("I must not fear.")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[enctype='multipart/form-data'] button[type=submit]"))

    assert "/photos/" in driver.current_url
    assert "Page 42" in driver.find_element(By.TAG_NAME, "figcaption").text
    assert "I must not fear." in driver.find_element(By.CSS_SELECTOR, ".photo-comment").text
    large = driver.find_element(By.CSS_SELECTOR, ".photo-large img")
    assert driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", large) == 1600
    assert driver.execute_script("return arguments[0].naturalHeight", large) == 1067
    check_page(driver, "31-photo")

    driver.get(book_url)
    thumb = driver.find_element(By.CSS_SELECTOR, ".photo-strip img")
    # The strip's thumbnails load lazily: give the browser a moment to fetch it before judging it.
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", thumb)
    WebDriverWait(driver, 5).until(
        lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", thumb))
    assert "All photos (1)" in driver.find_element(By.CSS_SELECTOR, ".photo-strip").text
    check_page(driver, "32-book-with-photo")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".photo-strip a[href*='/photos/'] img").find_element(By.XPATH, ".."))
    assert "Page 42" in driver.page_source

    driver.get(server + "/profile")
    assert "My uploads" in driver.page_source
    check_page(driver, "33-profile-uploads")

    # A second photo, of a book whose title is one long word: the profile's grid keeps to the screen (issue 35: it
    # scrolled sideways once it had two photos).
    driver.get(server + "/books/new")
    driver.find_element(By.ID, "title").send_keys("Hippopotomonstrosesquippedaliophobia" * 3)
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type=submit]"))
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Add photo"))
    driver.find_element(By.ID, "photo").send_keys(str(PHOTO))
    # The upload itself is the first photo's test; this one only needs a second photo, so the form is submitted as
    # its Upload button would.
    form = driver.find_element(By.CSS_SELECTOR, "form[enctype='multipart/form-data']")
    driver.execute_script("arguments[0].requestSubmit(arguments[0].querySelector('button[type=submit].primary'))", form)
    WebDriverWait(driver, 60).until(lambda d: re.search(r"/photos/\d+$", d.current_url.split("?")[0]))
    driver.get(server + "/profile")
    assert len(driver.find_elements(By.CSS_SELECTOR, ".photo-grid li")) == 2
    overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the profile is {overflow} px wider than the screen"
    check_page(driver, "33-profile-two-uploads")
