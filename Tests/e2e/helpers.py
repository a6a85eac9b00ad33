"""Shared steps for the browser flows: axe checks and screenshots."""
import importlib.resources
import re
import subprocess

import requests
from axe_selenium_python import Axe
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.support.ui import WebDriverWait

from conftest import SCREENSHOTS, SERVER

BLOCKING_IMPACTS = {"serious", "critical"}


def check_page(driver, name):
    """Saves a full-page screenshot and fails on any serious or critical axe violation."""
    driver.save_screenshot(str(SCREENSHOTS / f"{driver.viewport_name}-{name}.png"))
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    blocking = [v for v in results["violations"] if v.get("impact") in BLOCKING_IMPACTS]
    summary = "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}" for v in blocking
    )
    assert not blocking, f"axe found problems on {name} ({driver.current_url}):\n{summary}"


def click_and_wait(driver, element):
    """Clicks something that loads a new page and waits until the new document has loaded.

    The old page is marked with a window property; the wait ends when a document without the mark is
    complete. (Waiting for the old <html> element to go stale sometimes fails in chromedriver with
    "Node with given id does not belong to the document" instead of a stale-element error.)
    """
    driver.execute_script("window.__shelfedOldPage = true")
    # A person scrolls a control into the middle of the screen before tapping it.
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()
    WebDriverWait(driver, 10, ignored_exceptions=(WebDriverException,)).until(
        lambda d: d.execute_script("return !window.__shelfedOldPage && document.readyState === 'complete'"))


# axe-core 4.12, which knows WCAG 2.2 (target-size); axe_selenium_python carries 3.1.
AXE_4 = (importlib.resources.files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")
WCAG_22_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def axe_violations(driver, tags=WCAG_22_TAGS):
    """Runs axe-core 4 over the page with the WCAG 2.2 rules; returns its violations."""
    driver.execute_script(AXE_4)
    return driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}})"
        ".then(results => done(results.violations), error => done([{id: 'axe-error', impact: 'critical',"
        " help: String(error), nodes: []}]));", tags)


def csrf_token(html):
    """The CSRF token a page's forms carry."""
    return re.search(r'name="_csrf" value="([0-9a-f]+)"', html).group(1)


def signed_in_session(server, name, display_name):
    """A requests session signed in as a new account made from the command line (the suite's many sign-ups from one
    address would reach the hourly limit), and the token its forms need."""
    session = requests.Session()
    subprocess.run([str(SERVER["binary"]), "user", "add", name, "--email", f"{name}@example.com",
                    "--display-name", display_name], input="a long enough password\n", text=True, check=True,
                   env=SERVER["env"], capture_output=True)
    page = session.get(server + "/login").text
    session.post(server + "/login", data={"_csrf": csrf_token(page), "login": name,
                                          "password": "a long enough password"})
    return session, csrf_token(session.get(server + "/").text)



def move_to_shelf(driver, value):
    """Moves the book whose page is open to the shelf `value` through "Another shelf", where the book page keeps the
    full switch folded (issue 36)."""
    from selenium.webdriver.common.by import By
    more = driver.find_element(By.CSS_SELECTOR, "details.shelf-more")
    if not more.get_attribute("open"):
        summary = more.find_element(By.TAG_NAME, "summary")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
        summary.click()
    click_and_wait(driver, more.find_element(By.CSS_SELECTOR, f".shelf-switch button[value='{value}']"))


def open_disclosure(driver, css):
    """Opens the folded section `css` of a book page (its <details>) as a person taps its heading."""
    from selenium.webdriver.common.by import By
    section = driver.find_element(By.CSS_SELECTOR, css)
    if not section.get_attribute("open"):
        summary = section.find_element(By.TAG_NAME, "summary")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
        summary.click()
    return section
