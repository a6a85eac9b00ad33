"""The daily flows in Spanish and German (issue 39), on a phone and a desktop: a person whose setting is the language
adds a book, updates progress from home, adds a photo of a page, moves the book to Read, searches from the layout
and opens the import page — each answer in their language (read from the catalogue itself), with axe, no sideways
scroll and no English left in the page's navigation. Then the home, book and profile pages in all six languages,
screenshotted to be looked at."""
import pathlib
import re
import time
import uuid

import polib
import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from helpers import check_page, click_and_wait, move_to_shelf
from test_import_flow import goodreads_file
from test_photo_flow import PHOTO
from test_scan_flow import register
from test_screen_titles import no_sideways_scroll

# Keeps, in the tab's sessionStorage, each counts line the page's script writes while the import runs (installed
# once per page load; the record outlives the reload into the results).
WATCH_THE_COUNTS = """
const counts = document.getElementById("import-counts");
if (!counts || window.watchingTheCounts) return;
window.watchingTheCounts = true;
new MutationObserver(() => sessionStorage.setItem("counts", (sessionStorage.getItem("counts") || "") + counts.textContent + "\\n"))
  .observe(counts, {childList: true, characterData: true, subtree: true});
"""
LOCALES = pathlib.Path(__file__).resolve().parents[2] / "locales"
CATALOGUES = {}


def t(language, english):
    """`english` as the catalogue of `language` says it."""
    if language not in CATALOGUES:
        CATALOGUES[language] = {entry.msgid: entry.msgstr for entry in polib.pofile(str(LOCALES / f"{language}.po"))}
    return CATALOGUES[language][english]


def choose_language(driver, server, language):
    driver.get(server + "/profile/edit")
    select = driver.find_element(By.ID, "language")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", select)
    Select(select).select_by_value(language)
    click_and_wait(driver, select.find_element(By.XPATH, "./ancestor::form//button[@type='submit']"))
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == language


@pytest.mark.parametrize("language", ["es", "de"])
def test_the_daily_flows_in_spanish_and_german(server, browser, language, tmp_path):
    driver = browser
    register(driver, server)
    choose_language(driver, server, language)
    nav = driver.find_element(By.CSS_SELECTOR, "nav.tabs").text
    assert t(language, "Shelves") in nav and "Shelves" not in nav

    # A book by hand, onto Reading.
    title = f"Middlemarch {uuid.uuid4().hex[:4]}"
    driver.get(server + "/books/new")
    driver.find_element(By.ID, "title").send_keys(title)
    driver.find_element(By.ID, "page_count").send_keys("1234")
    Select(driver.find_element(By.ID, "shelf")).select_by_value("reading")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type=submit]"))
    book_url = driver.current_url.split("?")[0]

    # Progress from home: the notice in the language, the page count grouped its way.
    driver.get(server + "/")
    item = driver.find_element(By.CSS_SELECTOR, ".in-progress li")
    item.find_element(By.CSS_SELECTOR, "input[name=page]").send_keys("220")
    click_and_wait(driver, item.find_element(By.CSS_SELECTOR, ".progress-update button"))
    assert t(language, "Saved your progress.") in driver.page_source
    # CLDR: German groups four digits, Spanish only five and more.
    assert {"de": "220 von 1.234", "es": "220 de 1234"}[language] in driver.find_element(By.CSS_SELECTOR, ".in-progress").text
    assert no_sideways_scroll(driver)
    check_page(driver, f"406-home-progress-{language}")

    # A photo of a page.
    driver.get(book_url)
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, f"a[href='{book_url.split(server)[1]}/photos/new']"))
    driver.find_element(By.ID, "photo").send_keys(str(PHOTO))
    driver.find_element(By.ID, "page_number").send_keys("42")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[enctype='multipart/form-data'] button[type=submit]"))
    WebDriverWait(driver, 60).until(lambda d: re.search(r"/photos/\d+$", d.current_url.split("?")[0]))
    assert no_sideways_scroll(driver)
    check_page(driver, f"407-photo-{language}")

    # Finished: moved to Read from the book page.
    driver.get(book_url)
    move_to_shelf(driver, "read")
    assert t(language, "Read") in driver.find_element(By.CSS_SELECTOR, ".book-now").text
    assert no_sideways_scroll(driver)
    check_page(driver, f"408-book-read-{language}")

    # Search from the layout.
    search = driver.find_element(By.ID, "topbar-q")
    search.send_keys(title.split()[0])
    driver.execute_script("window.__shelfedOldPage = true")
    search.submit()
    WebDriverWait(driver, 10).until(lambda d: d.execute_script(
        "return !window.__shelfedOldPage && document.readyState === 'complete'"))
    assert driver.find_elements(By.LINK_TEXT, title)
    assert t(language, "Search") == driver.find_element(By.ID, "topbar-q").get_attribute("placeholder")
    assert no_sideways_scroll(driver)
    check_page(driver, f"409-find-{language}")

    # The import page, and an import whose live counts the page's script writes in the language.
    driver.get(server + "/import")
    assert driver.find_element(By.TAG_NAME, "h1").text == t(language, "Import your books, films and shows")
    assert no_sideways_scroll(driver)
    check_page(driver, f"410-import-{language}")
    export = tmp_path / "goodreads_library_export.csv"
    goodreads_file(export, copies=6)
    driver.find_element(By.ID, "file").send_keys(str(export))
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/import'] button[type=submit]"))
    driver.execute_script("sessionStorage.removeItem('counts')")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form.import-confirm button[type=submit]"))
    for _ in range(2400):  # at most about two minutes
        if driver.find_elements(By.ID, "results"):
            break
        try:
            driver.execute_script(WATCH_THE_COUNTS)
        except WebDriverException:
            pass  # the script reloaded the page between two looks
        time.sleep(0.05)
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.ID, "results"))
    written = [line for line in (driver.execute_script("return sessionStorage.getItem('counts')") or "").split("\n")
               if line]
    pattern = re.escape(t(language, "{{added}} added · {{updated}} updated · {{skipped}} skipped · {{failed}} failed"))
    pattern = re.sub(r"\\\{\\\{\w+\\\}\\\}", r"\\d+", pattern)
    assert written and all(re.fullmatch(pattern, line) for line in written), written[:3]


def test_home_book_and_profile_in_every_language(server, browser):
    driver = browser
    register(driver, server)
    driver.get(server + "/books/new")
    driver.find_element(By.ID, "title").send_keys("Cien años de soledad")
    driver.find_element(By.ID, "authors").send_keys("Gabriel García Márquez")
    driver.find_element(By.ID, "page_count").send_keys("471")
    Select(driver.find_element(By.ID, "shelf")).select_by_value("reading")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/books'] button[type=submit]"))
    book_url = driver.current_url.split("?")[0]
    for language in ["en", "es", "de", "fr", "it", "pt"]:
        choose_language(driver, server, language)
        for name, path in [("home", "/"), ("book", book_url), ("profile", "/profile")]:
            driver.get(path if path.startswith("http") else server + path)
            assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == language
            assert no_sideways_scroll(driver), f"{name} in {language} scrolls sideways"
            check_page(driver, f"411-{name}-{language}")
