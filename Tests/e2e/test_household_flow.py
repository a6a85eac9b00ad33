"""On a phone and a desktop (issue 25): the household's admin makes an invitation link, a new member opens it while
registration is closed to strangers, joins, and appears among the members — axe on each page."""
import subprocess
import uuid

from selenium.webdriver.common.by import By

from conftest import SERVER
from helpers import check_page, click_and_wait


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
    # The link is spent.
    driver.delete_all_cookies()
    driver.get(link)
    assert "This link cannot be used" in driver.page_source

    _sign_in(driver, server, admin)
    driver.get(server + "/household")
    assert "Sam Joiner" in driver.page_source
