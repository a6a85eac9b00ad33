"""Register → add a book by hand → Reading → favourite → /favourites → log out, at phone and desktop sizes."""
import uuid

from selenium.webdriver.common.by import By

from helpers import check_page, click_and_wait


def fill(driver, field_id, text):
    element = driver.find_element(By.ID, field_id)
    element.clear()
    element.send_keys(text)


def test_register_add_move_favourite_logout(server, browser):
    driver = browser
    username = f"reader{uuid.uuid4().hex[:8]}"

    driver.get(server + "/")
    assert driver.current_url.startswith(server + "/login")
    check_page(driver, "01-login")

    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Create an account"))
    check_page(driver, "02-register")
    fill(driver, "username", username)
    fill(driver, "display_name", "Robin Reader")
    fill(driver, "email", f"{username}@example.com")
    fill(driver, "password", "short")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/register'] button[type=submit]"))
    assert "Use at least 8 characters." in driver.page_source
    assert driver.find_element(By.ID, "username").get_attribute("value") == username
    check_page(driver, "03-register-error")
    fill(driver, "password", "a long enough password")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/register'] button[type=submit]"))

    assert driver.current_url == server + "/"
    assert "Your library is empty" in driver.page_source
    check_page(driver, "04-home-empty")

    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".empty-state a[href='/books/new']"))
    check_page(driver, "05-new-book")
    fill(driver, "title", "The Left Hand of Darkness")
    fill(driver, "authors", "Ursula K. Le Guin")
    fill(driver, "isbn", "978-0-441-47812-5")
    fill(driver, "page_count", "304")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type=submit]"))

    assert "/books/" in driver.current_url
    assert driver.find_element(By.TAG_NAME, "h1").text == "The Left Hand of Darkness"
    check_page(driver, "06-book")

    # Want to read: the one step is "Start reading".
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".shelf-next"))
    assert driver.find_element(By.CSS_SELECTOR, ".shelf-badge").text == "Reading"
    current = driver.find_element(By.CSS_SELECTOR, ".shelf-switch button[aria-current='true']")
    assert current.get_attribute("value") == "reading"
    started = driver.find_element(By.ID, "started_at").get_attribute("value")
    assert len(started) == 10 and started[4] == "-"

    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".book-controls button.star"))
    assert "Favourite" in driver.find_element(By.CSS_SELECTOR, ".book-controls button.star").text
    check_page(driver, "07-book-reading-favourite")

    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "nav.tabs a[href='/favourites']"))
    titles = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".card-title a")]
    assert titles == ["The Left Hand of Darkness"]
    check_page(driver, "08-favourites")

    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "nav.tabs a[href='/']"))
    assert "Currently reading" in driver.page_source
    check_page(driver, "09-home")

    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "nav.tabs a[href='/shelves']"))
    check_page(driver, "10-shelves")
    # The card's own buttons move the book and come back to the same list.
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".card button[name='shelf'][value='read']"))
    # Back on the same list at the same card, saying what happened, with Undo.
    assert driver.current_url.startswith(server + "/shelves?done=moved&book=")
    assert driver.current_url.endswith("#book-" + driver.current_url.split("book=")[1].split("&")[0])
    toast = driver.find_element(By.CSS_SELECTOR, ".toast")
    assert "Moved The Left Hand of Darkness to Read." in toast.text
    assert toast.find_element(By.CSS_SELECTOR, "input[name='undo']")
    check_page(driver, "10b-moved-with-undo")
    assert driver.find_element(By.CSS_SELECTOR, ".card .badge").text == "Read"
    assert "Finished " in driver.find_element(By.CSS_SELECTOR, ".card-meta").text
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "nav.tabs a[href='/profile']"))
    assert "@" + username in driver.page_source
    chart = driver.find_element(By.CSS_SELECTOR, "svg.chart")
    assert len(chart.find_elements(By.CSS_SELECTOR, "rect.bar")) == 12
    assert chart.size["width"] > 300 if driver.viewport_name == "desktop" else chart.size["width"] > 200
    assert "1 book finished" in driver.find_element(By.CSS_SELECTOR, ".statistics").text.replace("\n", " ")
    check_page(driver, "11-profile")
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Edit profile"))
    check_page(driver, "12-profile-edit")

    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/logout'] button"))
    assert driver.current_url.startswith(server + "/login")
    driver.get(server + "/favourites")
    assert driver.current_url == server + "/login?next=/favourites"
