"""On a phone and a desktop (issue 24): put a book down as Did not finish with a reason, find it on its own tab; open
a genre from Genres, see the shelf narrowed to it, and take the filter off again; make a list from shelf cards and
reorder it with the arrows and by dragging — axe on each page."""
import uuid

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from helpers import check_page, click_and_wait
from test_scan_flow import register


def test_did_not_finish_with_a_reason(server, browser):
    driver = browser
    register(driver, server)
    title = f"Ulysses {uuid.uuid4().hex[:4]}"
    driver.get(server + "/books/new")
    driver.find_element(By.ID, "title").send_keys(title)
    driver.find_element(By.ID, "page_count").send_keys("730")
    Select(driver.find_element(By.ID, "shelf")).select_by_value("reading")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type=submit]"))

    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".shelf-switch button[value='did_not_finish']"))
    section = driver.find_element(By.CSS_SELECTOR, ".book-stopped")
    assert "You stopped reading it on" in section.text
    section.find_element(By.ID, "stop_reason").send_keys("Lost in Dublin.")
    click_and_wait(driver, section.find_element(By.CSS_SELECTOR, "button[type=submit]"))
    assert "Saved: you did not finish this one." in driver.page_source
    assert driver.find_element(By.ID, "stop_reason").get_attribute("value") == "Lost in Dublin."
    check_page(driver, "74-did-not-finish")

    driver.get(server + "/shelves")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".shelf-tabs a[href='/shelves/did-not-finish']"))
    assert title in [card.text for card in driver.find_elements(By.CSS_SELECTOR, ".card-title")]
    check_page(driver, "75-did-not-finish-tab")


def test_a_genre_narrows_the_shelves_and_the_filter_comes_off(server, browser):
    driver = browser
    register(driver, server)
    driver.get(server + "/search?q=harry+potter")
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Harry Potter and the Deathly Hallows"))
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".shelf-switch button[value='want_to_read']"))
    driver.get(server + "/books/new")
    driver.find_element(By.ID, "title").send_keys("A book with no genre")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type=submit]"))

    driver.get(server + "/genres")
    check_page(driver, "76-genres")
    genre = driver.find_element(By.CSS_SELECTOR, ".genre-list .result-title a")
    name = genre.text
    click_and_wait(driver, genre)
    titles = [card.text for card in driver.find_elements(By.CSS_SELECTOR, ".card-title")]
    assert titles == ["Harry Potter and the Deathly Hallows"], titles
    chip = driver.find_element(By.CSS_SELECTOR, f".active-filters a[aria-label='Remove the filter Genre: {name}']")
    check_page(driver, "77-shelves-by-genre")
    click_and_wait(driver, chip)
    assert not driver.find_elements(By.CSS_SELECTOR, ".active-filters")
    assert len(driver.find_elements(By.CSS_SELECTOR, ".card-title")) == 2


def _list_titles(driver):
    return [title.text for title in driver.find_elements(By.CSS_SELECTOR, ".list-book .card-title")]


def test_a_list_is_made_filled_and_reordered_by_arrows_and_by_dragging(server, browser):
    driver = browser
    register(driver, server)
    titles = [f"{name} {uuid.uuid4().hex[:4]}" for name in ("Dune", "Emma", "Kim")]
    for title in titles:
        driver.get(server + "/books/new")
        driver.find_element(By.ID, "title").send_keys(title)
        click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type=submit]"))

    driver.get(server + "/lists")
    assert "No lists yet." in driver.page_source
    driver.find_element(By.ID, "name").send_keys("Summer reading")
    driver.find_element(By.ID, "description").send_keys("For the beach")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".new-list button[type=submit]"))
    assert "Made the list." in driver.page_source
    list_url = driver.current_url.split("?")[0]

    # Each book put on the list from the "Lists…" link of its shelf card, back on the shelf afterwards.
    for title in titles:
        driver.get(server + "/shelves")
        card = next(card for card in driver.find_elements(By.CSS_SELECTOR, ".card") if title in card.text)
        click_and_wait(driver, card.find_element(By.PARTIAL_LINK_TEXT, "Lists…"))
        driver.find_element(By.CSS_SELECTOR, "input[name=list]").click()
        click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form button[type=submit].primary"))
        assert driver.current_url.split("?")[0].endswith("/shelves")

    driver.get(list_url)
    assert _list_titles(driver) == titles
    check_page(driver, "78-list")
    # Without the drag: the last one up by one.
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, f"button[aria-label='Move {titles[2]} up']"))
    assert _list_titles(driver) == [titles[0], titles[2], titles[1]]

    # Dragging the first book below the last by its handle; the server keeps the order (seen after a reload).
    handles = driver.find_elements(By.CSS_SELECTOR, ".list-book .drag-handle")
    assert all(handle.is_displayed() for handle in handles)
    items = driver.find_elements(By.CSS_SELECTOR, ".list-book")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", items[1])
    last_box = items[2].rect
    actions = ActionChains(driver)
    actions.click_and_hold(handles[0])
    for _ in range(8):
        actions.move_by_offset(0, (last_box["y"] + last_box["height"] - items[0].rect["y"]) / 8)
    actions.release().perform()
    expected = [titles[2], titles[1], titles[0]]
    assert _list_titles(driver) == expected
    places = [place.text for place in driver.find_elements(By.CSS_SELECTOR, ".list-book .list-place")]
    assert places == ["1", "2", "3"]
    for _ in range(50):
        driver.get(list_url)
        if _list_titles(driver) == expected:
            break
    assert _list_titles(driver) == expected
    check_page(driver, "79-list-reordered")
