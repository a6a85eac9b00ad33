"""On a phone and a desktop (issue 36, a housemate's page): from the house feed, a member's name opens what they
share — reading now, read this year, want to read — and a book the viewer has not got goes on their Want to read in
one tap, back on the same page; axe on the page."""
import uuid

from selenium.webdriver.common.by import By

from helpers import check_page, click_and_wait, signed_in_session


def test_a_housemates_page_from_the_feed_with_one_tap_add(server, browser):
    suffix = uuid.uuid4().hex[:6]
    sharer, token = signed_in_session(server, f"mate{suffix}", f"Mate {suffix}")
    sharer.post(server + "/profile/sharing", data={"_csrf": token, "shares": "1"})
    sharer.post(server + "/books", data={"_csrf": token, "title": "Mate Reads This", "shelf": "reading"})
    # Found through search, so a provider's row that anyone in the house may add.
    sharer.post(server + "/search/add", data={"_csrf": token, "volume_id": "shelfedHP03B", "shelf": "want_to_read"})
    viewer, _ = signed_in_session(server, f"viewer{suffix}", "Viewer")
    driver = browser
    driver.get(server + "/login")
    for cookie in viewer.cookies:
        driver.add_cookie({"name": cookie.name, "value": cookie.value, "path": "/"})
    driver.get(server + "/house/feed")
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, f"Mate {suffix}"))
    assert "/house/members/" in driver.current_url
    assert "Mate Reads This" in driver.find_element(By.ID, "member-reading").find_element(By.XPATH, "..").text
    assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    check_page(driver, "101-housemate")
    page = driver.current_url
    add = driver.find_element(By.CSS_SELECTOR, "button[aria-label='Add Harry Potter and the Classroom to Want to read']")
    click_and_wait(driver, add)
    assert driver.current_url.startswith(page), driver.current_url
    assert driver.find_elements(By.LINK_TEXT, "Harry Potter and the Classroom"), "it should now be the viewer's"
