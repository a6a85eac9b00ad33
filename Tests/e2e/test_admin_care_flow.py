"""On a phone and a desktop (issue 35, the admin's care): the admin backs the server up now from Settings and sees the
backup listed as done; opens "Check this server" and reads each check as a sentence, not JSON; makes an invitation
and copies its link with the button, which says it did — axe on each page."""
import subprocess
import time
import uuid

from selenium.webdriver.common.by import By

from conftest import SERVER
from helpers import check_page, click_and_wait


def _admin(driver, server):
    name = f"care{uuid.uuid4().hex[:8]}"
    subprocess.run([str(SERVER["binary"]), "user", "add", name, "--email", f"{name}@example.com",
                    "--display-name", "Carey Admin"], input="a long enough password\n", text=True, check=True,
                   env=SERVER["env"], capture_output=True)
    subprocess.run([str(SERVER["binary"]), "user", "make-admin", name], check=True, env=SERVER["env"],
                   capture_output=True)
    driver.get(server + "/login")
    driver.find_element(By.ID, "login").send_keys(name)
    driver.find_element(By.ID, "password").send_keys("a long enough password")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action^='/login'] button[type=submit]"))


def test_the_admin_backs_up_now_checks_the_server_and_copies_an_invitation(server, browser):
    driver = browser
    _admin(driver, server)
    driver.get(server + "/profile/edit")
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Back up now']"))
    assert "#backups-heading" in driver.current_url
    # The backup runs beside the server: the page says so, then lists it once it is written and checked.
    for _ in range(60):
        section = driver.find_element(By.ID, "backups-heading").find_element(By.XPATH, "..").text
        if "None yet" not in section and "being written" not in section:
            break
        time.sleep(1)
        driver.get(server + "/profile/edit#backups-heading")
    assert "None yet" not in section, section
    check_page(driver, "93-backed-up-now")

    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Check this server"))
    assert driver.find_element(By.TAG_NAME, "h1").text == "Check this server"
    titles = [element.text for element in driver.find_elements(By.CSS_SELECTOR, ".result-title")]
    assert len(titles) >= 4 and all(title.strip() for title in titles), titles
    assert "{" not in driver.find_element(By.TAG_NAME, "main").text, "the checks should read as sentences"
    check_page(driver, "94-server-checks")

    driver.get(server + "/household")
    driver.find_element(By.ID, "note").send_keys("Grandad")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/household/invitations'] button"))
    copy = driver.find_element(By.CSS_SELECTOR, "[data-copy='new-link']")
    assert copy.is_displayed()
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", copy)
    copy.click()
    status = driver.find_element(By.ID, copy.get_attribute("data-copy-status"))
    for _ in range(20):
        if status.text:
            break
        time.sleep(0.1)
    assert status.text in ("Copied. Paste it into a message.", "Select the link and copy it."), status.text
    assert driver.execute_script(
        "const f = document.getElementById('new-link'); return f.selectionEnd - f.selectionStart") > 10
    check_page(driver, "95-invitation-copied")
