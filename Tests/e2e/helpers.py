"""Shared steps for the browser flows: axe checks and screenshots."""
from axe_selenium_python import Axe
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
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
    """Clicks something that loads a new page and waits until the old page is gone."""
    old_page = driver.find_element(By.TAG_NAME, "html")
    # A person scrolls a control into the middle of the screen before tapping it.
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()
    WebDriverWait(driver, 10).until(expected_conditions.staleness_of(old_page))
