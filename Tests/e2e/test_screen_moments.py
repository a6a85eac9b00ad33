"""Films and shows beside books (issue 37): a film's photo keeps the time it comes at ("1:02:15") where a book's keeps
its page, a time past the film's end is refused with the typed text kept; the favourites tab shows a book and a
film, and its Films tab only the film; the profile counts the film watched apart from the books. Axe, no sideways
scroll and a screenshot at both sizes."""
import pathlib
import uuid

from selenium.webdriver.common.by import By

from helpers import check_page, click_and_wait, signed_in_session
from test_screen_titles import no_sideways_scroll, sign_in_browser

PHOTO = pathlib.Path(__file__).resolve().parents[1] / "Fixtures" / "images" / "Landscape_6.jpg"


def add_by_hand(driver, server, kind, fields):
    driver.get(server + "/books/new" + ("" if kind == "book" else "?kind=" + kind))
    for field, value in fields.items():
        driver.find_element(By.ID, field).send_keys(value)
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type='submit']"))
    return driver.current_url.split("?")[0]


def test_a_film_photo_at_a_time_and_favourites_of_both_kinds(server, browser):
    session, _ = signed_in_session(server, f"moments{uuid.uuid4().hex[:8]}", "Moment Keeper")
    driver = browser
    sign_in_browser(driver, server, session)

    book = add_by_hand(driver, server, "book", {"title": "Dune Messiah", "published_date": "1969"})
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".book-controls button.star"))
    film = add_by_hand(driver, server, "movie", {
        "title": "Dune: Part Two", "authors": "Denis Villeneuve", "published_date": "2024", "runtime": "166"})
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".book-controls button.star"))
    # Watched today: "Watched it", then "watched it again today" dates the viewing.
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".shelf-next"))
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form.watch-again button"))

    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Add photo"))
    assert driver.find_element(By.CSS_SELECTOR, "label[for='moment']").text.startswith("Time in the film")
    assert "It runs 2 h 46 min." in driver.find_element(By.ID, "moment-hint").text
    assert not driver.find_elements(By.ID, "page_number")
    driver.find_element(By.ID, "photo").send_keys(str(PHOTO))
    driver.find_element(By.ID, "moment").send_keys("3:10:00")
    driver.find_element(By.ID, "comment").send_keys("The sandworm ride.")
    submit = "form[enctype='multipart/form-data'] button[type=submit]"
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, submit))
    # Past the end: refused, the time and comment kept, the picture kept for the next try.
    assert "This film runs 2 h 46 min" in driver.find_element(By.ID, "moment-error").text
    assert driver.find_element(By.ID, "moment").get_attribute("value") == "3:10:00"
    assert "The sandworm ride." in driver.find_element(By.ID, "comment").get_attribute("value")
    assert "Kept from your last try" in driver.find_element(By.CSS_SELECTOR, ".kept-upload").text
    assert no_sideways_scroll(driver)
    check_page(driver, "383-film-photo-refused")
    moment = driver.find_element(By.ID, "moment")
    moment.clear()
    moment.send_keys("1:02:15")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, submit))
    assert "/photos/" in driver.current_url
    assert "1:02:15" in driver.find_element(By.TAG_NAME, "figcaption").text
    assert driver.find_element(By.ID, "moment").get_attribute("value") == "1:02:15"
    assert no_sideways_scroll(driver)
    check_page(driver, "384-film-photo")

    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "nav.tabs a[href='/favourites']"))
    titles = sorted(e.text for e in driver.find_elements(By.CSS_SELECTOR, ".card-title a"))
    assert titles == ["Dune Messiah", "Dune: Part Two"]
    assert no_sideways_scroll(driver)
    check_page(driver, "385-favourites-both-kinds")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, ".kind-tabs").find_element(By.LINK_TEXT, "Films"))
    assert [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".card-title a")] == ["Dune: Part Two"]
    assert "Films only" in driver.find_element(By.CSS_SELECTOR, ".active-filters").text
    check_page(driver, "386-favourites-films")

    driver.get(server + "/profile")
    section = driver.find_element(By.CSS_SELECTOR, "section.watching")
    figures = [item.text for item in section.find_elements(By.CSS_SELECTOR, ".stat-grid li")]
    assert figures == ["1\nfilm watched", "3\nhours watched"]
    assert no_sideways_scroll(driver)
    driver.execute_script("arguments[0].scrollIntoView()", section)
    check_page(driver, "387-profile-watching")
    assert book and film
