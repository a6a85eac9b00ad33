"""The pages the API brings to the browser: Devices (a phone's key listed, then revoked) and the API reference,
at phone and desktop sizes, with axe."""
import uuid

import requests
from selenium.webdriver.common.by import By

from helpers import check_page, click_and_wait


def fill(driver, field_id, text):
    element = driver.find_element(By.ID, field_id)
    element.clear()
    element.send_keys(text)


def test_devices_page_lists_and_revokes_a_phone(server, browser):
    driver = browser
    username = f"devices{uuid.uuid4().hex[:8]}"
    driver.get(server + "/register")
    fill(driver, "username", username)
    fill(driver, "display_name", "Device Owner")
    fill(driver, "email", f"{username}@example.com")
    fill(driver, "password", "a long enough password")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/register'] button[type=submit]"))

    driver.get(server + "/profile/devices")
    assert "No device has a key yet" in driver.page_source
    check_page(driver, "devices-empty")

    answer = requests.post(server + "/api/v1/sessions", json={
        "email": f"{username}@example.com", "password": "a long enough password", "device_name": "Kitchen iPad"})
    assert answer.status_code == 200
    key = answer.json()["api_key"]
    assert requests.get(server + "/api/v1/books", headers={"Authorization": f"Bearer {key}"}).status_code == 200

    driver.get(server + "/profile/edit")
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "See and revoke them"))
    assert "Kitchen iPad" in driver.page_source
    assert key not in driver.page_source
    check_page(driver, "devices")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".device button[type=submit]"))
    assert "revoked" in driver.page_source
    assert "No device has a key yet" in driver.page_source
    assert requests.get(server + "/api/v1/books", headers={"Authorization": f"Bearer {key}"}).status_code == 401


def test_api_reference_reads_without_internet(server, browser):
    driver = browser
    driver.get(server + "/api/docs")
    assert "Shelfed API reference" in driver.find_element(By.TAG_NAME, "h1").text
    assert driver.find_elements(By.ID, "createSession")
    # Every resource comes from this server: nothing to fetch from the internet.
    external = driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith(location.origin))")
    assert external == []
    check_page(driver, "api-docs")
