"""On a phone and a desktop (issue 36, toasts): × closes the message without loading the page again and takes it
out of the address; a plain message fades by itself in a few seconds; one with Undo stays longer; while a message
shows, the page has room below its last control."""
import time
import uuid

from selenium.webdriver.common.by import By

from helpers import check_page, signed_in_session


def _signed_in(driver, server):
    session, token = signed_in_session(server, f"toast{uuid.uuid4().hex[:8]}", "Toast Reader")
    added = session.post(server + "/books", data={"_csrf": token, "title": "A Book to Move", "shelf": "reading"})
    book = added.url.rstrip("/").rsplit("/", 1)[1].split("?")[0]
    driver.get(server + "/login")
    for cookie in session.cookies:
        driver.add_cookie({"name": cookie.name, "value": cookie.value, "path": "/"})
    return book


def _toasts(driver):
    """The texts of the toasts on screen, read in one script: a toast fading out may leave the page between a
    lookup and a question about it."""
    return driver.execute_script(
        "return [...document.querySelectorAll('.toast')]"
        ".filter(t => t.getClientRects().length > 0 && !t.classList.contains('is-leaving')).map(t => t.innerText)")


def test_toasts_close_without_a_reload_fade_and_leave_room(server, browser):
    driver = browser
    book = _signed_in(driver, server)

    # Undo offered: still there after the plain message's time; × closes it where it is.
    driver.get(f"{server}/shelves/reading?done=moved&book={book}&from=want_to_read")
    assert _toasts(driver) and "Undo" in _toasts(driver)[0]
    toast_height = driver.execute_script("return document.querySelector('.toast').offsetHeight")
    padding = driver.execute_script("return parseFloat(getComputedStyle(document.getElementById('main')).paddingBottom)")
    assert padding >= toast_height, (padding, toast_height)
    check_page(driver, "97-toast-with-undo")
    time.sleep(6)
    assert _toasts(driver), "a message with Undo should stay longer than a plain one"
    driver.execute_script("window.__stillThisPage = true")
    driver.find_element(By.CSS_SELECTOR, ".toast-dismiss").click()
    time.sleep(0.5)
    assert driver.execute_script("return window.__stillThisPage === true"), "× should not load the page again"
    assert not _toasts(driver)
    assert "done=" not in driver.current_url, driver.current_url
    driver.refresh()
    assert not _toasts(driver), "a reload should not bring the message back"

    # A plain message fades by itself.
    driver.get(f"{server}/shelves/reading?done=added&book={book}")
    assert _toasts(driver)
    for _ in range(100):
        if not _toasts(driver):
            break
        time.sleep(0.1)
    assert not _toasts(driver), "a plain message should fade after a few seconds"
