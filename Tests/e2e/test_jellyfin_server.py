"""The household's Jellyfin server (issue 38), on a phone and a desktop: the admin links it on Household → Jellyfin
(a refused key is said so; the key is never shown back), links themself to their Jellyfin user, and brings in what
they played from the Import page — the film lands on Watched, "At home" once the server's library is read; again
adds nothing; then unlinks the server. The fake
Jellyfin answers in the shapes its API documents. Axe, no sideways scroll."""
import subprocess
import time
import uuid

from selenium.webdriver.common.by import By

from conftest import SERVER
from fake_books import JELLYFIN_KEY
from helpers import check_page, click_and_wait
from test_screen_titles import no_sideways_scroll


def _admin(driver, server):
    """A new admin with a name of their own (the e2e house is shared, and each size runs the test again)."""
    name = f"jelly{uuid.uuid4().hex[:8]}"
    display = f"Jelly {name[-4:]}"
    subprocess.run([str(SERVER["binary"]), "user", "add", name, "--email", f"{name}@example.com",
                    "--display-name", display], input="a long enough password\n", text=True, check=True,
                   env=SERVER["env"], capture_output=True)
    subprocess.run([str(SERVER["binary"]), "user", "make-admin", name], check=True, env=SERVER["env"],
                   capture_output=True)
    driver.get(server + "/login")
    driver.find_element(By.ID, "login").send_keys(name)
    driver.find_element(By.ID, "password").send_keys("a long enough password")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action^='/login'] button[type=submit]"))
    return display


def test_the_admin_links_jellyfin_and_brings_in_what_they_played(server, browser, fake_books):
    driver = browser
    display = _admin(driver, server)
    driver.get(server + "/household/jellyfin")
    address = driver.find_element(By.ID, "jellyfin_url")
    address.clear()
    address.send_keys(fake_books.base_url + "/jellyfin")
    driver.find_element(By.ID, "jellyfin_api_key").send_keys("f" * 32)
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Link the server']"))
    assert "Jellyfin refused the API key" in driver.find_element(By.ID, "jellyfin_url-error").text
    assert "f" * 32 not in driver.page_source
    driver.find_element(By.ID, "jellyfin_api_key").send_keys(JELLYFIN_KEY)
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Link the server']"))
    notice = driver.find_element(By.CSS_SELECTOR, "section[aria-labelledby=jellyfin-server-heading] .notice").text
    assert "Connected to “Living room” (Jellyfin 10.10.3)" in notice, notice
    assert no_sideways_scroll(driver)
    check_page(driver, "399-jellyfin-server")

    # The admin is Rain in Jellyfin: their own field in "Who is who".
    me = driver.find_element(By.XPATH, f"//label[normalize-space()='{display}']").get_attribute("for")
    field = driver.find_element(By.ID, me)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", field)
    field.clear()
    field.send_keys("Rain")
    click_and_wait(driver, field.find_element(By.XPATH, "./ancestor::form//button[@type='submit']"))

    driver.get(server + "/import")
    button = driver.find_element(By.XPATH, "//button[normalize-space()='Bring in what I played in Jellyfin']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    click_and_wait(driver, button)
    notice = driver.find_element(By.CSS_SELECTOR, "section[aria-labelledby=jellyfin-history-heading] .notice").text
    assert "From Jellyfin: 1 film or episode counted." in notice, notice
    assert no_sideways_scroll(driver)
    check_page(driver, "400-jellyfin-history")
    button = driver.find_element(By.XPATH, "//button[normalize-space()='Bring in what I played in Jellyfin']")
    click_and_wait(driver, button)
    assert "1 was already" in driver.find_element(By.CSS_SELECTOR, ".notice").text
    driver.get(server + "/shelves/read?kind=movie")
    assert driver.find_elements(By.LINK_TEXT, "Dune")

    # The server holds Dune: once Shelfed has read its library (in the background, just after linking), the film's
    # page says it is at home.
    film = driver.find_element(By.LINK_TEXT, "Dune").get_attribute("href")
    for _ in range(20):
        driver.get(film)
        if driver.find_elements(By.CSS_SELECTOR, ".at-home"):
            break
        time.sleep(0.5)
    assert "on the house's Jellyfin" in driver.find_element(By.CSS_SELECTOR, ".at-home").text
    assert no_sideways_scroll(driver)
    check_page(driver, "401-jellyfin-at-home")

    # Unlinked: the Import page no longer offers it (other tests share this server).
    driver.get(server + "/household/jellyfin")
    click_and_wait(driver, driver.find_element(By.XPATH, "//button[normalize-space()='Unlink the server']"))
    driver.get(server + "/import")
    assert "From the house's Jellyfin" not in driver.page_source
    driver.get(film)
    assert not driver.find_elements(By.CSS_SELECTOR, ".at-home")
