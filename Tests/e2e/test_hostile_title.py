"""A book titled to break out of an attribute (quote + combining mark, autofocus, onfocus) shown on home, shelf,
search and book pages in Chromium: no script runs, and Shelfed's own markup causes no CSP violation."""
import uuid

from selenium.webdriver.common.by import By

from helpers import click_and_wait

ATTACK = 'x"\u0301 autofocus onfocus=window.__pwned=1 x="'
# Installed before any page script by the browser itself, so it sees everything the page does.
WATCH = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', e => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
window.alert = () => { window.__pwned = 'alert'; };
"""


def fill(driver, field_id, text):
    element = driver.find_element(By.ID, field_id)
    element.clear()
    element.send_keys(text)


def assert_harmless(driver, where):
    driver.execute_script("document.activeElement && document.activeElement.blur && document.activeElement.blur()")
    assert driver.execute_script("return window.__pwned === undefined"), f"script ran on {where}"
    violations = driver.execute_script("return window.__cspViolations")
    assert violations == [], f"CSP violations on {where}: {violations}"


def test_attack_title_stays_text(server, browser):
    driver = browser
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH})
    username = f"mallory{uuid.uuid4().hex[:8]}"
    driver.get(server + "/register")
    fill(driver, "username", username)
    fill(driver, "display_name", ATTACK)
    fill(driver, "email", f"{username}@example.com")
    fill(driver, "password", "a long enough password")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/register'] button[type=submit]"))
    assert driver.current_url == server + "/"

    driver.get(server + "/books/new")
    fill(driver, "title", ATTACK)
    fill(driver, "authors", ATTACK)
    driver.find_element(By.CSS_SELECTOR, "select#shelf option[value='reading']").click()
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type=submit]"))
    assert driver.find_element(By.TAG_NAME, "h1").text == ATTACK
    assert_harmless(driver, "the book page")

    for path in ["/", "/shelves", "/shelves/reading", "/favourites", "/profile"]:
        driver.get(server + path)
        assert_harmless(driver, path)
        if path != "/favourites" and path != "/profile":
            titles = [element.text for element in driver.find_elements(By.CSS_SELECTOR, ".card-title a")]
            assert ATTACK in titles, f"{path} shows {titles}"
        # Focus every control, as a person tabbing through would: an injected onfocus would fire now.
        for element in driver.find_elements(By.CSS_SELECTOR, "a, button, input, select")[:40]:
            driver.execute_script("arguments[0].focus()", element)
        assert_harmless(driver, path + " after focusing every control")

    driver.get(server + "/search?q=" + ATTACK)
    assert driver.find_element(By.ID, "q").get_attribute("value") == ATTACK
    assert_harmless(driver, "/search")
    driver.get(server + "/books/new?title=" + ATTACK)
    assert driver.find_element(By.ID, "title").get_attribute("value") == ATTACK
    assert_harmless(driver, "/books/new?title=")
