"""On a phone and a desktop (issue 24): put a book down as Did not finish with a reason, find it on its own tab; open
a genre from Genres, see the shelf narrowed to it, and take the filter off again; make a list from shelf cards and
reorder it with the arrows and by dragging; turn a photo before saving it, then turn and crop it on its page — axe
on each page."""
import pathlib
import uuid

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from helpers import check_page, click_and_wait, move_to_shelf
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

    move_to_shelf(driver, "did_not_finish")
    assert "stopped today" in driver.find_element(By.CSS_SELECTOR, ".shelf-state").text
    section = driver.find_element(By.CSS_SELECTOR, ".book-stopped")
    section.find_element(By.ID, "stop_reason").send_keys("Lost in Dublin.")
    click_and_wait(driver, section.find_element(By.CSS_SELECTOR, "button[type=submit]"))
    assert "Saved: you did not finish this one." in driver.page_source
    assert driver.find_element(By.ID, "stop_reason").get_attribute("value") == "Lost in Dublin."
    check_page(driver, "74-did-not-finish")

    driver.get(server + "/shelves")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".shelf-tabs a[href='/shelves/did-not-finish']"))
    assert title in [card.text for card in driver.find_elements(By.CSS_SELECTOR, ".card-title")]
    assert "Stopped " in driver.find_element(By.CSS_SELECTOR, ".card-meta").text
    # The last tab, past a phone's edge in the sideways-scrolling row, is brought into view on its own page.
    assert driver.execute_script(
        "var r = document.querySelector('.shelf-tabs [aria-current=page]').getBoundingClientRect();"
        "return r.left >= 0 && r.right <= document.documentElement.clientWidth;")
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
    # ↑ on the last one: moved on the page at once, the keyboard's place kept, and the server told (seen after a
    # reload).
    up = driver.find_element(By.CSS_SELECTOR, f"button[aria-label='Move {titles[2]} up']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", up)
    up.click()
    moved = [titles[0], titles[2], titles[1]]
    assert _list_titles(driver) == moved
    assert driver.switch_to.active_element.get_attribute("aria-label") == f"Move {titles[2]} up"
    for _ in range(50):
        driver.get(list_url)
        if _list_titles(driver) == moved:
            break
    assert _list_titles(driver) == moved

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

    # And upwards, from the last place to the first (issue 35: an upward drag stopped after one place, unsaved).
    handles = driver.find_elements(By.CSS_SELECTOR, ".list-book .drag-handle")
    items = driver.find_elements(By.CSS_SELECTOR, ".list-book")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", items[1])
    # From the handle's middle to just inside the first book's top edge, past its middle.
    handle_box = handles[2].rect
    distance = items[0].rect["y"] + 2 - (handle_box["y"] + handle_box["height"] / 2)
    actions = ActionChains(driver)
    actions.click_and_hold(handles[2])
    for _ in range(8):
        actions.move_by_offset(0, distance / 8)
    actions.release().perform()
    upwards = [titles[0], titles[2], titles[1]]
    assert _list_titles(driver) == upwards
    for _ in range(50):
        driver.get(list_url)
        if _list_titles(driver) == upwards:
            break
    assert _list_titles(driver) == upwards
    check_page(driver, "79-list-reordered")


PHOTO = pathlib.Path(__file__).resolve().parents[1] / "Fixtures" / "images" / "Landscape_6.jpg"


def _photo_size(driver):
    large = driver.find_element(By.CSS_SELECTOR, ".photo-large img")
    return driver.execute_script("return [arguments[0].naturalWidth, arguments[0].naturalHeight]", large)


def test_a_photo_is_turned_before_saving_then_turned_and_cropped_on_its_page(server, browser):
    driver = browser
    register(driver, server)
    driver.get(server + "/books/new")
    driver.find_element(By.ID, "title").send_keys("Dune")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type=submit]"))
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Add photo"))

    # Chosen, shown at once, turned right with the preview's button before anything is sent.
    driver.find_element(By.ID, "photo").send_keys(str(PHOTO))
    preview = driver.find_element(By.CSS_SELECTOR, ".upload-preview")
    WebDriverWait(driver, 10).until(lambda _: preview.is_displayed())
    canvas = driver.find_element(By.CSS_SELECTOR, ".upload-preview canvas")
    wide = driver.execute_script("return [arguments[0].width, arguments[0].height]", canvas)
    assert wide[0] > wide[1]
    turn_right = preview.find_element(By.CSS_SELECTOR, "button[data-turn=right]")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", turn_right)
    turn_right.click()
    assert driver.execute_script("return [arguments[0].width, arguments[0].height]", canvas) == [wide[1], wide[0]]
    assert Select(driver.find_element(By.ID, "turn")).first_selected_option.get_attribute("value") == "right"
    check_page(driver, "80-photo-upload-turned")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[enctype='multipart/form-data'] button.primary"))
    assert "/photos/" in driver.current_url
    assert _photo_size(driver) == [1067, 1600]

    # On its page: turned back, then a crop drawn with the pointer and saved.
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".touch-up-turns button[value=turn-left]"))
    assert "Back to the photo as it was taken." in driver.page_source
    assert _photo_size(driver) == [1600, 1067]
    toggle = driver.find_element(By.CSS_SELECTOR, ".cropper-hint button")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", toggle)
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    surface = driver.find_element(By.CSS_SELECTOR, ".crop-surface")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", surface)
    box = surface.rect
    actions = ActionChains(driver)
    actions.move_to_element_with_offset(surface, -box["width"] / 2 + 2, -box["height"] / 2 + 2).click_and_hold()
    for _ in range(5):
        actions.move_by_offset(box["width"] / 10, box["height"] / 10)
    actions.release().perform()
    right = float(driver.find_element(By.ID, "crop_right").get_attribute("value"))
    bottom = float(driver.find_element(By.ID, "crop_bottom").get_attribute("value"))
    assert 40 <= right <= 60 and 40 <= bottom <= 60, (right, bottom)
    check_page(driver, "81-photo-crop-drawn")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".crop-form button.primary"))
    width, height = _photo_size(driver)
    assert 600 <= width <= 1000 and 400 <= height <= 700, (width, height)
    check_page(driver, "82-photo-cropped")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".touch-up-turns button[value=undo]"))
    assert _photo_size(driver) == [1600, 1067]
