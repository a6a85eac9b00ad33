"""A watching history comes in (issue 38): a Letterboxd export ZIP, written here with the real one's quirks (a title
with a comma, the same title in two years, a rewatch with no earlier row, a review with HTML, a watchlist), is
uploaded on the import page, previewed as films on Want to watch / Watched, imported, and its results shown; the film
page lists every viewing; the films come out again as a Letterboxd CSV. Axe, no sideways scroll, both sizes."""
import uuid
import zipfile

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from helpers import check_page, click_and_wait, signed_in_session
from test_screen_titles import no_sideways_scroll, sign_in_browser

EXPORT = {
    "watched.csv": "Date,Name,Year,Letterboxd URI\r\n"
                   "2019-01-05,Alien,1979,https://boxd.it/2b0k\r\n"
                   "2019-01-05,Halloween,1978,https://boxd.it/1Yx0\r\n"
                   "2019-01-06,Halloween,2018,https://boxd.it/fJ2a\r\n"
                   "2019-01-07,\"Lock, Stock and Two Smoking Barrels\",1998,https://boxd.it/29jI\r\n",
    "diary.csv": "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\r\n"
                 "2021-06-02,Alien,1979,https://boxd.it/1VoAHp,4.5,Yes,,2021-06-01\r\n"
                 "2020-01-03,Alien,1979,https://boxd.it/1VoAHq,,,,2020-01-01\r\n"
                 "2019-11-01,Halloween,1978,https://boxd.it/1VoAHr,,Yes,on-netflix,2019-10-31\r\n",
    "ratings.csv": "Date,Name,Year,Letterboxd URI,Rating\r\n2021-06-02,Alien,1979,https://boxd.it/2b0k,4.5\r\n",
    "reviews.csv": "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Review,Tags,Watched Date\r\n"
                   "2021-06-02,Alien,1979,https://boxd.it/1VoAHp,4.5,Yes,\"Still <b>terrifying</b>."
                   "<script>alert(1)</script>\",,2021-06-01\r\n",
    "watchlist.csv": "Date,Name,Year,Letterboxd URI\r\n2022-03-01,Nosferatu,1922,https://boxd.it/2aHi\r\n",
    "likes/films.csv": "Date,Name,Year,Letterboxd URI\r\n2019-01-06,Halloween,2018,https://boxd.it/fJ2a\r\n",
}


def test_a_letterboxd_export_zip_is_imported_and_goes_out_again(server, browser, tmp_path):
    session, _ = signed_in_session(server, f"boxd{uuid.uuid4().hex[:8]}", "Lettie Boxd")
    driver = browser
    sign_in_browser(driver, server, session)
    export = tmp_path / "letterboxd-lettie-2026-11-27-09-00-utc.zip"
    with zipfile.ZipFile(export, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in EXPORT.items():
            archive.writestr(name, text)

    driver.get(server + "/import")
    assert "Letterboxd" in driver.find_element(By.TAG_NAME, "main").text
    driver.find_element(By.ID, "file").send_keys(str(export))
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/import'] button[type=submit]"))
    assert driver.find_element(By.TAG_NAME, "h1").text == "Import from Letterboxd"
    page = driver.find_element(By.TAG_NAME, "main").text
    assert "films to import" in page and "Want to watch" in page and "Watched" in page, page
    assert "Films you already have" in page
    assert no_sideways_scroll(driver)
    check_page(driver, "388-letterboxd-preview")

    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form.import-confirm button[type=submit]"))
    WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.ID, "results"))
    assert "<th scope=\"row\">Added</th><td>5</td>" in driver.page_source
    assert "<th scope=\"row\">Failed</th><td>0</td>" in driver.page_source
    check_page(driver, "389-letterboxd-results")

    driver.get(server + "/shelves/read?kind=movie")
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Alien"))
    page = driver.find_element(By.TAG_NAME, "main").text
    # Two diary entries are two viewings; the review's HTML is text, never markup.
    assert "Watched 1 Jun 2021 · seen 2 times" in page, page
    assert not driver.find_elements(By.CSS_SELECTOR, "main script:not([src]), main b")
    assert no_sideways_scroll(driver)
    check_page(driver, "390-letterboxd-film")

    answer = session.get(server + "/export/letterboxd")
    assert answer.status_code == 200 and answer.headers["Content-Type"].startswith("text/csv")
    lines = answer.text.splitlines()
    assert lines[0].startswith("LetterboxdURI,tmdbID,imdbID,Title,Year")
    assert sum(line.startswith("https://boxd.it/2b0k,") for line in lines) == 2
    assert not any("Nosferatu" in line for line in lines)


def test_film_night_lists_what_everyone_on_the_sofa_wants(server, browser):
    suffix = uuid.uuid4().hex[:6]
    viewer, viewer_token = signed_in_session(server, f"sofa{suffix}", "Sofa Host")
    mate, mate_token = signed_in_session(server, f"mate{suffix}", "Mate Sofa")
    for session, token in ((viewer, viewer_token), (mate, mate_token)):
        session.post(server + "/profile/sharing", data={"_csrf": token, "shares": "1"})
    films = [("Heat", "1995", "170"), ("Up", "2009", "96"), ("Arrival", "2016", "116"), ("Dune", "2021", "155")]
    for session, token, wanted in ((viewer, viewer_token, films), (mate, mate_token, films[:3])):
        for title, year, runtime in wanted:
            answer = session.post(server + "/books", data={
                "_csrf": token, "title": title, "kind": "movie", "published_date": year, "runtime": runtime,
                "shelf": "want_to_read"}, allow_redirects=False)
            assert answer.status_code == 303, answer.text[:300]
            if session is mate and title == "Arrival":
                book = answer.headers["Location"].split("?")[0]
                session.post(server + book + "/copy", data={"_csrf": token, "owned": "1"})
    driver = browser
    sign_in_browser(driver, server, viewer)
    driver.get(server + "/house")
    click_and_wait(driver, driver.find_element(By.PARTIAL_LINK_TEXT, "Film night"))
    driver.find_element(By.XPATH, "//label[contains(normalize-space(), 'Mate Sofa')]/input").click()
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form.film-night-form button[type=submit]"))
    summary = driver.find_element(By.ID, "film-night-summary").text
    assert summary.startswith("3 titles on the Want to watch of you and Mate Sofa"), summary
    titles = [item.text for item in driver.find_elements(By.CSS_SELECTOR, ".film-night-list .result-title")]
    # Owned in the house first, then the shortest.
    assert titles == ["Arrival", "Up", "Heat"], titles
    assert "Owned in the house" in driver.find_element(By.CSS_SELECTOR, ".film-night-list").text
    assert no_sideways_scroll(driver)
    check_page(driver, "391-film-night")
    # Two hours from now: Heat (2 h 50 min) is said to run longer.
    hour = driver.execute_script(
        "const d = new Date(Date.now() + 2 * 3600 * 1000);"
        "return String(d.getUTCHours()).padStart(2, '0') + ':' + String(d.getUTCMinutes()).padStart(2, '0');")
    driver.get(server + driver.current_url.split(server)[1].split("&until")[0] + "&until=" + hour)
    assert [item.text for item in driver.find_elements(By.CSS_SELECTOR, ".film-night-list .result-title")] == \
        ["Arrival", "Up"]
    assert "1 more run longer than that" in driver.page_source


TRAKT_SHOWS = """[{"plays": 4, "last_watched_at": "2015-03-10T05:21:51.000Z",
  "show": {"title": "Chuck", "year": 2007, "ids": {"trakt": 1395, "tvdb": 80348, "imdb": "tt0934814", "tmdb": 1404,
           "tvrage": null}},
  "seasons": [{"number": 0, "episodes": [{"number": 1, "plays": 1, "last_watched_at": "2014-12-24T20:00:00.000Z"}]},
              {"number": 1, "episodes": [{"number": 1, "plays": 1, "last_watched_at": "2015-01-01T09:00:00.000Z"},
                                         {"number": 2, "plays": 2, "last_watched_at": "2015-03-10T05:21:51.000Z"},
                                         {"number": 3, "plays": 1, "last_watched_at": "2015-03-11T05:21:51.000Z"}]}]}]"""


def test_a_trakt_history_becomes_a_show_watched_episode_by_episode(server, browser, tmp_path):
    session, _ = signed_in_session(server, f"trakt{uuid.uuid4().hex[:8]}", "Tracy Trakt")
    driver = browser
    sign_in_browser(driver, server, session)
    export = tmp_path / "watched-shows.json"
    export.write_text(TRAKT_SHOWS)
    driver.get(server + "/import")
    driver.find_element(By.ID, "file").send_keys(str(export))
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/import'] button[type=submit]"))
    assert driver.find_element(By.TAG_NAME, "h1").text == "Import from Trakt"
    assert "1 TV show to import" in driver.find_element(By.TAG_NAME, "main").text
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form.import-confirm button[type=submit]"))
    WebDriverWait(driver, 60).until(lambda d: d.find_elements(By.ID, "results"))
    driver.get(server + "/shelves/reading?kind=show")
    click_and_wait(driver, driver.find_element(By.LINK_TEXT, "Chuck"))
    page = driver.find_element(By.TAG_NAME, "main").text
    # The second pass through S1E2 is the open one; the first pass's episodes and days are kept.
    assert "Watching" in page, page
    assert no_sideways_scroll(driver)
    check_page(driver, "392-trakt-show")
