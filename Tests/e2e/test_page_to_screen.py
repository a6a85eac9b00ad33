"""Page to screen (issue 38): a film added from Wikidata (no TMDB token) is looked up in the background; its page
names the novel it is based on, linked to the reader's own copy, and asks "Read it first?"; the novel's page lists the
film under On screen. The fake Wikidata answers in the recordings' shapes. Axe, no sideways scroll, both sizes."""
import time
import uuid

from selenium.webdriver.common.by import By

from helpers import check_page, click_and_wait, signed_in_session
from test_screen_titles import no_sideways_scroll, sign_in_browser


def test_a_film_names_its_book_and_the_book_its_film(server, browser):
    session, token = signed_in_session(server, f"p2s{uuid.uuid4().hex[:8]}", "Page Reader")
    answer = session.post(server + "/books", data={
        "_csrf": token, "title": "Dune", "authors": "Frank Herbert", "shelf": "want_to_read"}, allow_redirects=False)
    book = answer.headers["Location"].split("?")[0]
    answer = session.post(server + "/titles/add", data={
        "_csrf": token, "source": "wikidata", "id": "Q37550044", "kind": "movie", "shelf": "want_to_read"},
        allow_redirects=False)
    assert answer.status_code == 303, answer.text[:300]
    film = answer.headers["Location"].split("?")[0]
    deadline = time.time() + 30
    while "Based on the book" not in session.get(server + film).text and time.time() < deadline:
        time.sleep(0.5)

    driver = browser
    sign_in_browser(driver, server, session)
    driver.get(server + film)
    section = driver.find_element(By.CSS_SELECTOR, "section.page-to-screen")
    assert "Based on the book Dune by Frank Herbert" in section.text, section.text
    assert "Read it first? Dune is on your Want to read." in section.text
    assert no_sideways_scroll(driver)
    check_page(driver, "395-page-to-screen-film")
    click_and_wait(driver, section.find_element(By.LINK_TEXT, "Dune"))
    assert driver.current_url.split("?")[0].endswith(book)
    section = driver.find_element(By.CSS_SELECTOR, "section.page-to-screen")
    assert section.find_element(By.TAG_NAME, "h2").text == "On screen"
    assert "The film Dune (2021)" in section.text, section.text
    assert no_sideways_scroll(driver)
    check_page(driver, "396-page-to-screen-book")
