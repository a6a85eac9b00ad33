"""On a phone and a desktop (issue 25): the household's admin makes an invitation link, a new member opens it, joins
and appears among the members; the new member starts a book and shares their reading, and it shows in the admin's
house feed and on the admin's copy of the book; the admin lends that copy to the new member, sees it in the house
library, and marks it returned — axe on each page."""
import subprocess
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import SERVER
from helpers import check_page, click_and_wait, open_disclosure


def _account(name):
    subprocess.run([str(SERVER["binary"]), "user", "add", name, "--email", f"{name}@example.com",
                    "--display-name", "Ada Admin"], input="a long enough password\n", text=True, check=True,
                   env=SERVER["env"], capture_output=True)


def _sign_in(driver, server, name):
    driver.get(server + "/login")
    driver.find_element(By.ID, "login").send_keys(name)
    driver.find_element(By.ID, "password").send_keys("a long enough password")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action^='/login'] button[type=submit]"))


def test_the_admin_invites_someone_who_joins(server, browser):
    driver = browser
    admin = f"ada{uuid.uuid4().hex[:8]}"
    _account(admin)
    # The suite's server has many accounts; this one is made its admin from the command line, as a person running
    # the server would when the admin has moved out.
    subprocess.run([str(SERVER["binary"]), "user", "make-admin", admin], check=True, env=SERVER["env"],
                   capture_output=True)
    _sign_in(driver, server, admin)
    driver.get(server + "/profile/edit")
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Invite people, make a new-password link, or manage members"))
    check_page(driver, "90-household")

    driver.find_element(By.ID, "note").send_keys("Sam")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/household/invitations'] button"))
    link = driver.find_element(By.ID, "new-link").get_attribute("value")
    assert "/join/" in link and "Sam" in driver.page_source
    check_page(driver, "91-household-invitation")

    driver.delete_all_cookies()
    joiner = f"sam{uuid.uuid4().hex[:8]}"
    driver.get(server + "/join/" + link.rsplit("/", 1)[1])
    assert "Join the household" in driver.page_source
    check_page(driver, "92-join")
    for field, value in (("username", joiner), ("display_name", "Sam Joiner"), ("email", f"{joiner}@example.com"),
                         ("password", "a long enough password")):
        driver.find_element(By.ID, field).send_keys(value)
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action^='/join/'] button[type=submit]"))
    assert driver.current_url.rstrip("/") == server.rstrip("/")
    title = f"The Shared Book {uuid.uuid4().hex[:4]}"
    isbn = "9780140449136"
    driver.get(server + "/books/new")
    driver.find_element(By.ID, "title").send_keys(title)
    driver.find_element(By.ID, "isbn").send_keys(isbn)
    Select(driver.find_element(By.ID, "shelf")).select_by_value("reading")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type=submit]"))
    driver.get(server + "/profile/edit")
    shares = driver.find_element(By.ID, "shares")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", shares)
    shares.click()
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/profile/sharing'] button"))
    assert "You share your reading with the household now." in driver.page_source
    # The link is spent.
    driver.delete_all_cookies()
    driver.get(link)
    assert "This link cannot be used" in driver.page_source

    _sign_in(driver, server, admin)
    driver.get(server + "/household")
    assert "Sam Joiner" in driver.page_source
    driver.get(server + "/")
    feed = driver.find_element(By.CSS_SELECTOR, ".house-feed").text
    assert "Sam Joiner started " + title in feed, feed
    check_page(driver, "93-house-feed")
    driver.get(server + "/books/new")
    driver.find_element(By.ID, "title").send_keys("My own copy")
    driver.find_element(By.ID, "isbn").send_keys(isbn)
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type=submit]"))
    house = driver.find_element(By.CSS_SELECTOR, ".book-house").text
    assert "Sam Joiner on Reading" in house, house
    check_page(driver, "94-in-the-house")

    # Lending is for a copy you own: say so under "Your copy", then lend it.
    assert not driver.find_elements(By.CSS_SELECTOR, ".lend-form")
    open_disclosure(driver, ".book-copy")
    driver.find_element(By.ID, "owned").click()
    driver.find_element(By.ID, "location").send_keys("Hall bookcase")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".book-copy form.stack button[type=submit]"))
    Select(driver.find_element(By.ID, "member")).select_by_visible_text("Sam Joiner")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".lend-form button[type=submit]"))
    assert "On loan to Sam Joiner since" in driver.page_source
    book_url = driver.current_url.split("?")[0]
    driver.get(server + "/house?available=")
    copy = next(item for item in driver.find_elements(By.CSS_SELECTOR, ".house-copies-list .result")
                if "My own copy" in item.text)
    assert "Hall bookcase" in copy.text and "On loan to Sam Joiner" in copy.text, copy.text
    check_page(driver, "95-house-library")
    driver.get(book_url)
    open_disclosure(driver, ".book-copy")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, f"form[action$='/returned'] button"))
    assert "Marked returned" in driver.page_source and "On loan to" not in driver.page_source
