"""Watched together (issue 38): a film watched with a housemate is told from its page, and the housemate — on their
phone, signed in the same browser after — finds it in For you and adds it to their own shelf with the same day; the
feed says both of them watched it. Axe, no sideways scroll, both sizes."""
import datetime
import uuid

from selenium.webdriver.common.by import By

from helpers import check_page, click_and_wait, open_disclosure, signed_in_session
from test_screen_titles import no_sideways_scroll, sign_in_browser


def test_a_viewing_told_to_a_housemate_is_on_their_shelf_after_their_yes(server, browser):
    suffix = uuid.uuid4().hex[:6]
    host, host_token = signed_in_session(server, f"sofa{suffix}", f"Robin {suffix}")
    mate, mate_token = signed_in_session(server, f"mate{suffix}", f"Sam {suffix}")
    third, third_token = signed_in_session(server, f"third{suffix}", f"Kit {suffix}")
    for session, token in ((host, host_token), (mate, mate_token)):
        session.post(server + "/profile/sharing", data={"_csrf": token, "shares": "1"})
    answer = host.post(server + "/books", data={
        "_csrf": host_token, "title": f"Arrival {suffix}", "kind": "movie", "published_date": "2016", "runtime": "116",
        "shelf": "want_to_read"}, allow_redirects=False)
    assert answer.status_code == 303, answer.text[:300]
    film = answer.headers["Location"].split("?")[0]
    today = datetime.date.today().isoformat()
    host.post(server + film + "/shelf", data={"_csrf": host_token, "shelf": "read"})
    host.post(server + film + "/dates", data={"_csrf": host_token, "started_at": "", "finished_at": today})

    driver = browser
    sign_in_browser(driver, server, host)
    driver.get(server + film)
    open_disclosure(driver, "details.together")
    # The whole e2e run's people live in one house: the list is long, so the box is brought into view as a thumb would.
    box = driver.find_element(By.XPATH, f"//details[@id='together']//label[normalize-space() = 'Sam {suffix}']/input")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    box.click()
    check_page(driver, "393-together-tell")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "details.together form button[type=submit]"))
    assert "Told them" in driver.find_element(By.TAG_NAME, "body").text
    assert f"With Sam {suffix}, today: waiting for their answer." in driver.find_element(By.ID, "together").text
    assert no_sideways_scroll(driver)

    # Sam, on their phone: the count in the header, the line in For you, one tap.
    driver.delete_all_cookies()
    sign_in_browser(driver, server, mate)
    driver.get(server + "/for-you")
    offers = driver.find_element(By.CSS_SELECTOR, "section.together-offers").text
    assert f"Robin {suffix} watched Arrival {suffix} with you, today." in offers, offers
    assert no_sideways_scroll(driver)
    check_page(driver, "394-together-for-you")
    click_and_wait(driver, driver.find_element(By.CSS_SELECTOR, "section.together-offers button[value=yes]"))
    page = driver.find_element(By.TAG_NAME, "main").text
    assert driver.find_element(By.TAG_NAME, "h1").text == f"Arrival {suffix}"
    assert "Added to your shelf with the day you watched it together." in driver.find_element(
        By.TAG_NAME, "body").text
    assert "Watched" in page
    driver.get(server + "/shelves/read?together=1")
    assert f"Arrival {suffix}" in driver.find_element(By.TAG_NAME, "main").text

    # Kit, who does not share, reads the feed: one line for the two of them.
    feed = third.get(server + "/house/feed").text
    line = next(item for item in feed.split("<li>")[1:] if f"Robin {suffix}" in item)
    assert f"Sam {suffix}</a> and <a" in line or f"Robin {suffix}</a> and <a" in line, line
    assert line.count("/house/members/") == 2 and f"Arrival {suffix}" in line and "</strong> watched" in line, line
