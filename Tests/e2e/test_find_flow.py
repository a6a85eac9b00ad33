"""On a phone and a desktop (issue 36, search from anywhere): from a shelf page, the header's field asks one question;
the answer groups the person's own books (a title typed exactly first) and Google Books' with their add buttons;
one tap adds a result; nothing on the page is wider than the screen — axe on each."""
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from helpers import check_page, click_and_wait, signed_in_session


def test_the_header_search_answers_in_groups_and_adds_in_one_tap(server, browser):
    session, token = signed_in_session(server, f"find{uuid.uuid4().hex[:8]}", "Find Reader")
    for title in ("The Harry Potter Cookbook", "Harry Potter"):
        session.post(server + "/books", data={"_csrf": token, "title": title, "shelf": "want_to_read"})
    driver = browser
    driver.get(server + "/login")
    for cookie in session.cookies:
        driver.add_cookie({"name": cookie.name, "value": cookie.value, "path": "/"})

    driver.get(server + "/shelves")
    field = driver.find_element(By.ID, "topbar-q")
    assert field.is_displayed()
    assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    field.send_keys("harry potter")
    driver.execute_script("window.__shelfedOldPage = true")
    field.send_keys(Keys.ENTER)
    WebDriverWait(driver, 15).until(
        lambda d: d.execute_script("return !window.__shelfedOldPage && document.readyState === 'complete'"))
    assert "/find?q=harry+potter" in driver.current_url
    library = driver.find_elements(By.CSS_SELECTOR, "#find-library ~ ul a")
    assert [link.text for link in library][:1] == ["Harry Potter"]
    results = driver.find_elements(By.CSS_SELECTOR, ".results .result")
    assert 1 <= len(results) <= 5
    assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    check_page(driver, "100-find")

    add = results[0].find_element(By.CSS_SELECTOR, "button[name='shelf']")
    click_and_wait(driver, add)
    assert "/books/" in driver.current_url or "done=added" in driver.current_url, driver.current_url
