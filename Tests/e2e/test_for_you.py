"""For you (issue 36, part 5) on a phone and a desktop: a recommendation and a borrow request raise the count on the
bell in every page's header; the page lists both; "Mark all as seen" takes the count down to the request still
waiting, and lending it takes it to nothing. A recommendation opens the book in Shelfed and adds it in one tap."""
import re
import uuid

from selenium.webdriver.common.by import By

from helpers import check_page, click_and_wait, signed_in_session


def member_id(session, server):
    return re.search(r'href="/house/members/(\d+)"', session.get(server + "/").text)


def test_the_count_of_what_waits_goes_up_and_down(server, browser):
    suffix = uuid.uuid4().hex[:8]
    alice, alice_token = signed_in_session(server, f"alice{suffix}", f"Alice {suffix}")
    bob, bob_token = signed_in_session(server, f"bob{suffix}", f"Bob {suffix}")
    for session, token in ((alice, alice_token), (bob, bob_token)):
        session.post(server + "/profile/sharing", data={"_csrf": token, "shares": "1"})
    # Alice owns a copy Bob asks for; Bob recommends her a book of his.
    copy = alice.post(server + "/books", data={"_csrf": alice_token, "title": "Middlemarch", "shelf": "read"},
                      allow_redirects=False).headers["Location"].split("?")[0]
    alice.post(server + copy + "/copy", data={"_csrf": alice_token, "owned": "1"})
    ask = re.search(r'action="(/house/copies/\d+/ask)"', bob.get(server + "/house/books/" + copy.split("/")[-1]).text)
    bob.post(server + ask.group(1), data={"_csrf": bob_token})
    dune = bob.post(server + "/books", data={"_csrf": bob_token, "title": "Dune", "shelf": "read"},
                    allow_redirects=False).headers["Location"].split("?")[0]
    page = bob.get(server + dune).text
    alice_id = re.search(rf'<option value="(\d+)">Alice {suffix}</option>', page).group(1)
    bob.post(server + dune + "/recommend", data={"_csrf": bob_token, "member": alice_id, "note": "Spice!"})

    driver = browser
    driver.get(server + "/login")
    for cookie in alice.cookies:
        driver.add_cookie({"name": cookie.name, "value": cookie.value, "path": "/"})
    driver.get(server + "/shelves")
    bell = driver.find_element(By.CSS_SELECTOR, "a.for-you")
    assert bell.find_element(By.CSS_SELECTOR, ".for-you-count").text == "2"
    assert bell.get_attribute("aria-label") == "For you: 2 things waiting"
    assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    click_and_wait(driver, bell)
    assert "asks to borrow" in driver.find_element(By.CSS_SELECTOR, ".requests").text
    assert "Spice!" in driver.find_element(By.CSS_SELECTOR, ".recommended").text
    check_page(driver, "112-for-you")

    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".for-you-seen button"))
    assert driver.find_element(By.CSS_SELECTOR, ".for-you-count").text == "1"
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".requests button[value='lend']"))
    assert not driver.find_elements(By.CSS_SELECTOR, ".for-you-count")
    assert driver.find_element(By.CSS_SELECTOR, "a.for-you").get_attribute("aria-label") == "For you: nothing waiting"

    # The recommendation opens the book in Shelfed; one tap puts it on Want to read.
    driver.get(server + "/for-you")
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Dune"))
    assert "/house/books/" in driver.current_url
    check_page(driver, "113-house-book")
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[text()='Add to Want to read']"))
    assert driver.find_element(By.TAG_NAME, "h1").text == "Dune"
    assert driver.find_element(By.CSS_SELECTOR, ".shelf-badge").text == "Want to read"
