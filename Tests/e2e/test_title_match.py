"""Imported films matched after the import (issue 38): a Letterboxd file with "Dune" and no year is imported; the
background matching finds one film of that name on the fake Wikidata (no TMDB token) but, with no year, never guesses:
the import's results link to "Which title is it?", where the person chooses; the film then has its director. Axe, no
sideways scroll, both sizes."""
import time
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from helpers import check_page, click_and_wait, signed_in_session
from test_screen_titles import no_sideways_scroll, sign_in_browser


def test_an_imported_film_without_a_year_waits_for_the_persons_choice(server, browser, tmp_path):
    session, _ = signed_in_session(server, f"match{uuid.uuid4().hex[:8]}", "Mat Cher")
    driver = browser
    sign_in_browser(driver, server, session)
    export = tmp_path / "watched.csv"
    export.write_text("Date,Name,Year,Letterboxd URI\r\n2024-01-06,Dune,,https://boxd.it/zzzz\r\n", encoding="utf-8")

    driver.get(server + "/import")
    driver.find_element(By.ID, "file").send_keys(str(export))
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/import'] button[type=submit]"))
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form.import-confirm button[type=submit]"))
    WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.ID, "results"))
    results = driver.current_url

    # The matching runs one title at a time after imports, other tests' films too: bounded wait.
    deadline = time.time() + 120
    while "Which title is it?" not in session.get(server + "/titles/match").text or \
            "Dune (2021)" not in session.get(server + "/titles/match").text:
        assert time.time() < deadline, "the imported film was never offered for a choice"
        time.sleep(1)
    driver.get(results)
    notice = driver.find_element(By.CSS_SELECTOR, "main p.notice")
    assert "fits more than one title" in notice.text, notice.text
    click_and_wait(driver, notice.find_element(By.LINK_TEXT, "Choose which"))
    assert driver.find_element(By.TAG_NAME, "h1").text == "Which title is it?"
    card = driver.find_element(By.CSS_SELECTOR, "section.title-match")
    assert "Dune (2021)" in card.text and "None of these" in card.text, card.text
    assert no_sideways_scroll(driver)
    check_page(driver, "397-title-match")

    label = card.find_element(By.XPATH, ".//label[contains(., 'Dune (2021)')]")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", label)
    label.click()
    click_and_wait(driver, card.find_element(By.CSS_SELECTOR, "button[type=submit]"))
    assert "it has its poster and details now" in driver.find_element(By.CSS_SELECTOR, ".toast").text
    assert "Nothing to choose" in driver.find_element(By.TAG_NAME, "main").text
    check_page(driver, "398-title-matched")
    driver.get(server + "/shelves/read?kind=movie")
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Dune"))
    assert "Denis Villeneuve" in driver.find_element(By.TAG_NAME, "main").text
