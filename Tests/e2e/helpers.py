"""Shared steps for the browser flows: axe checks and screenshots."""
from axe_selenium_python import Axe
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.support.ui import WebDriverWait

from conftest import SCREENSHOTS

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
