"""Import a Goodreads export on a phone: upload, preview, confirm, watch the progress bar reach 100 %, fix the one
failed row, and find the books on the shelves."""
import csv
import pathlib
import re
import subprocess
import time
import uuid

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import SERVER
from helpers import check_page, click_and_wait

MADE_EXPORT = pathlib.Path(__file__).resolve().parents[1] / "Fixtures" / "imports" / "goodreads_library_export.csv"


# Appends the bar's value to the tab's sessionStorage now and whenever the page's script moves it; installed once
# per page load.
WATCH_THE_BAR = """
const bar = document.getElementById("import-progress");
if (!bar || window.watchingTheBar) return;
window.watchingTheBar = true;
const note = () => sessionStorage.setItem("bar", (sessionStorage.getItem("bar") || "") + bar.value + " ");
note();
new MutationObserver(note).observe(bar, {attributes: true, attributeFilter: ["value"]});
"""


def goodreads_file(path, copies):
    """The made export's 358 rows, repeated with new titles and ids so the import takes long enough to watch, and
    one row whose Date Read a spreadsheet rewrote (M/D/YYYY) that must fail until it is fixed."""
    with MADE_EXPORT.open(encoding="utf-8-sig", newline="") as source:
        reader = csv.DictReader(source)
        header = reader.fieldnames
        rows = list(reader)
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=header)
        writer.writeheader()
        for copy in range(copies):
            for row in rows:
                row = dict(row)
                row["Book Id"] = f"{copy}{row['Book Id']}"
                row["Title"] = f"{row['Title']} — copy {copy}"
                row["ISBN"] = row["ISBN13"] = '=""'
                writer.writerow(row)
        broken = dict(rows[0], **{"Book Id": "999999", "Title": "The Broken Row", "ISBN": '=""', "ISBN13": '=""',
                                  "Exclusive Shelf": "read", "Date Read": "3/4/2024"})
        writer.writerow(broken)
    return copies * len(rows)


def test_import_a_goodreads_library(server, browser, tmp_path):
    driver = browser
    # The account comes from the command line: the suite's sign-ups from one address would reach the hourly limit.
    username = f"mover{uuid.uuid4().hex[:8]}"
    subprocess.run([str(SERVER["binary"]), "user", "add", username, "--email", f"{username}@example.com",
                    "--display-name", "Mo Mover"], input="a long enough password\n", text=True, check=True,
                   env=SERVER["env"], capture_output=True)
    driver.get(server + "/login")
    driver.find_element(By.ID, "login").send_keys(username)
    driver.find_element(By.ID, "password").send_keys("a long enough password")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action^='/login'] button[type=submit]"))

    export = tmp_path / "goodreads_library_export.csv"
    books = goodreads_file(export, copies=10)

    driver.get(server + "/import")
    check_page(driver, "40-import")
    driver.find_element(By.ID, "file").send_keys(str(export))
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/import'] button[type=submit]"))

    assert "Preview" in driver.page_source
    assert f"{books} books to import" in driver.page_source
    assert "1 row needs a fix" in driver.page_source
    assert "The Broken Row" in driver.page_source
    check_page(driver, "41-import-preview")

    driver.execute_script("sessionStorage.removeItem('bar')")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "form.import-confirm button[type=submit]"))
    seen = []
    deadline = time.time() + 120
    while time.time() < deadline:
        try:
            bars = driver.find_elements(By.ID, "import-progress")
            if not bars:
                break
            seen.append(int(bars[0].get_attribute("value")))
            # On a fast machine the rest of the import can land between two samples, and the script's last move
            # (to 100, just before it reloads into the results) is gone before it can be sampled: the page keeps a
            # record of every value its bar is given, which outlives the reload.
            driver.execute_script(WATCH_THE_BAR)
        except WebDriverException:
            # The script reloaded the page between finding the bar and reading it.
            continue
        if len(seen) == 3:
            check_page(driver, "42-import-progress")
        time.sleep(0.05)
    # The bar moved while the page was open, and the script reloaded the page into the results.
    assert seen, "the progress page was never shown"
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.ID, "results"))
    recorded = [int(value) for value in (driver.execute_script("return sessionStorage.getItem('bar')") or "").split()]
    assert max(seen + recorded) > min(seen + recorded), f"the progress bar did not move: {seen[:5]}… {recorded[:5]}…"
    assert f"<th scope=\"row\">Added</th><td>{books}</td>" in driver.page_source
    assert "<th scope=\"row\">Failed</th><td>1</td>" in driver.page_source
    # Covers and details are filled in afterwards; the page says how far that has got.
    assert re.search(r"\d+ of [\d,]+ books filled in", driver.page_source), "no enrichment progress on the results"
    check_page(driver, "43-import-results")

    problem = driver.find_element(By.CSS_SELECTOR, ".problem")
    assert "3/4/2024" in problem.text
    summary = problem.find_element(By.TAG_NAME, "summary")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
    summary.click()
    date_read = problem.find_element(By.XPATH, ".//label[normalize-space()='Date Read']/following-sibling::input")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", date_read)
    date_read.clear()
    date_read.send_keys("2024-03-04")
    click_and_wait(driver, problem.find_element(By.CSS_SELECTOR, "button[type=submit]"))
    assert f"<th scope=\"row\">Added</th><td>{books + 1}</td>" in driver.page_source
    assert "<th scope=\"row\">Failed</th><td>0</td>" in driver.page_source

    driver.get(server + "/shelves/read?sort=finished&order=desc")
    assert "The Broken Row" in driver.page_source
    check_page(driver, "44-shelf-after-import")
