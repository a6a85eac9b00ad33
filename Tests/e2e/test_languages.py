"""Shelfed in the household's languages (issue 39), on a phone and a desktop: a Spanish browser gets the sign-in page
in Spanish; the switch at its foot turns it German for this browser; signed in, the person chooses Italian in their
settings and the navigation speaks it, while their browser still asks for Spanish. Axe, no sideways scroll, and
screenshots of each language's sign-in page."""
import subprocess
import uuid

from selenium.webdriver.common.by import By

from conftest import SERVER

from helpers import check_page, click_and_wait
from test_screen_titles import no_sideways_scroll


def _browser_language(driver, language):
    """Chromium's Accept-Language, through the DevTools protocol (the test's browser is already running)."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Language": language}})


def test_the_sign_in_page_speaks_the_browsers_language_and_the_switch_changes_it(server, browser):
    driver = browser
    # Someone lives here already (alone, this test would meet the first-run sign-up instead of the sign-in page).
    someone = f"lang{uuid.uuid4().hex[:8]}"
    subprocess.run([str(SERVER["binary"]), "user", "add", someone, "--email", f"{someone}@example.com",
                    "--display-name", someone], input="a long enough password\n", text=True, check=True,
                   env=SERVER["env"], capture_output=True)
    driver.delete_all_cookies()
    _browser_language(driver, "es-ES,es;q=0.9")
    try:
        driver.get(server + "/login")
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "es"
        assert driver.find_element(By.TAG_NAME, "h1").text == "Inicia sesión en Shelfed"
        current = driver.find_element(By.CSS_SELECTOR, ".language-switch [aria-current=true]")
        assert current.text == "Español"
        assert no_sideways_scroll(driver)
        check_page(driver, "402-login-es")
        for code, name in [("de", "Deutsch"), ("fr", "Français"), ("it", "Italiano"), ("pt", "Português")]:
            button = driver.find_element(By.CSS_SELECTOR, f".language-switch button[value={code}]")
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            click_and_wait(driver, button)
            assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == code
            assert driver.find_element(By.CSS_SELECTOR, ".language-switch [aria-current=true]").text == name
            assert no_sideways_scroll(driver)
            check_page(driver, f"403-login-{code}")
        # German again, then a new account: the form's messages in German, the typed name kept.
        click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".language-switch button[value=de]"))
        driver.get(server + "/register")
        name = f"lang{uuid.uuid4().hex[:8]}"
        driver.find_element(By.ID, "username").send_keys(name)
        driver.find_element(By.ID, "display_name").send_keys("Grete " + name[-4:])
        driver.find_element(By.ID, "password").send_keys("short")
        click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form button[type=submit]"))
        assert "Verwende mindestens 8 Zeichen." in driver.find_element(By.ID, "password-error").text
        assert driver.find_element(By.ID, "username").get_attribute("value") == name
        check_page(driver, "404-register-de-error")
        # Signed in as the account made above (the suite's sign-ups from one address would reach the hourly limit).
        driver.get(server + "/login")
        driver.find_element(By.ID, "login").send_keys(someone)
        driver.find_element(By.ID, "password").send_keys("a long enough password")
        click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action^='/login'] button[type=submit]"))

        # Signed in, the browser still asks for Spanish but the choice in the settings wins: Italian.
        driver.get(server + "/profile/edit")
        select = driver.find_element(By.ID, "language")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", select)
        select.find_element(By.CSS_SELECTOR, "option[value=it]").click()
        click_and_wait(driver, select.find_element(By.XPATH, "./ancestor::form//button[@type='submit']"))
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "it"
        assert "Preferiti" in driver.find_element(By.CSS_SELECTOR, "nav.tabs").text
        assert driver.find_element(By.ID, "language").get_attribute("value") == "it"
        assert no_sideways_scroll(driver)
        check_page(driver, "405-settings-it")
    finally:
        _browser_language(driver, "en-US,en;q=0.9")
        driver.delete_all_cookies()
