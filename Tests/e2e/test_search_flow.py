"""Search (against the fake Google Books) → open a result → add to Want to read → see it on the shelf with its cover."""
import uuid

from selenium.webdriver.common.by import By

from helpers import check_page, click_and_wait


def register(driver, server):
    username = f"finder{uuid.uuid4().hex[:8]}"
    driver.get(server + "/register")
    for field, value in (("username", username), ("display_name", "Finley Finder"),
                         ("email", f"{username}@example.com"), ("password", "a long enough password")):
        driver.find_element(By.ID, field).send_keys(value)
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/register'] button[type=submit]"))


def test_search_open_add_and_see_cover(server, browser):
    driver = browser
    register(driver, server)

    driver.find_element(By.ID, "q").send_keys("harry potter")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".empty-state form[action='/search'] button"))
    assert "/search?q=harry+potter" in driver.current_url
    titles = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".result-title")]
    assert "Harry Potter and the Deathly Hallows" in titles
    check_page(driver, "20-search-results")

    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Harry Potter and the Deathly Hallows"))
    assert "/search/volumes/gCtazG4ZXlQC" in driver.current_url
    check_page(driver, "21-search-volume")

    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".shelf-switch button[value='want_to_read']"))
    assert "/books/" in driver.current_url
    assert driver.find_element(By.TAG_NAME, "h1").text == "Harry Potter and the Deathly Hallows"
    cover = driver.find_element(By.CSS_SELECTOR, ".book-cover img")
    assert cover.get_attribute("src").startswith(server + "/covers/")
    assert driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", cover)
    check_page(driver, "22-added-book")

    driver.get(server + "/shelves/want-to-read")
    card_cover = driver.find_element(By.CSS_SELECTOR, ".card img")
    assert "/covers/" in card_cover.get_attribute("src")
    assert driver.find_element(By.CSS_SELECTOR, ".card-title").text == "Harry Potter and the Deathly Hallows"
    check_page(driver, "23-shelf-with-cover")

    driver.get(server + "/search?q=harry+potter")
    shelves = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".in-library")]
    assert shelves == ["On your Want to read shelf"]
