"""Starts a real shelfed server on a free loopback port with a temporary data dir, and headless Chromium."""
import os
import pathlib
import shutil
import socket
import subprocess
import tempfile
import time

import pytest
import requests

from fake_books import FakeBooks
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "Tests" / "e2e" / "screenshots"
VIEWPORTS = {
    "phone": {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True},
    "desktop": {"width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False},
}


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def fake_books():
    fake = FakeBooks().start()
    yield fake
    fake.shutdown()


# The running server's binary and data folder, for tests that use the command line beside it.
SERVER = {}


@pytest.fixture(scope="session")
def server(fake_books):
    binary = pathlib.Path(os.environ.get("SHELFED_BINARY", ROOT / ".build" / "debug" / "shelfed"))
    data_dir = tempfile.mkdtemp(prefix="shelfed-e2e-")
    port = _free_port()
    env = dict(os.environ, SHELFED_HOST="127.0.0.1", SHELFED_PORT=str(port), SHELFED_DATA_DIR=data_dir,
               SHELFED_RESOURCES_DIR=str(ROOT), SHELFED_LOG_LEVEL="warning", SHELFED_REGISTRATION="open",
               SHELFED_GOOGLE_BOOKS_URL=fake_books.base_url + "/books/v1",
               SHELFED_OPEN_LIBRARY_URL=fake_books.base_url + "/ol",
               SHELFED_OPEN_LIBRARY_COVERS_URL=fake_books.base_url + "/olcovers",
               SHELFED_TVMAZE_URL=fake_books.base_url + "/tvmaze", SHELFED_WIKIDATA_URL=fake_books.base_url + "/wikidata",
               SHELFED_TMDB_URL="http://127.0.0.1:9", SHELFED_TMDB_IMAGES_URL="http://127.0.0.1:9",
               SHELFED_GEMINI_API_KEY="test-key", SHELFED_GEMINI_URL=fake_books.base_url + "/gemini")
    SERVER.update(binary=binary, env=env)
    log = open(pathlib.Path(data_dir) / "server.log", "w")
    process = subprocess.Popen([str(binary), "serve"], env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            if requests.get(base + "/health", timeout=1).status_code == 200:
                break
        except requests.ConnectionError:
            time.sleep(0.1)
    else:
        process.kill()
        raise RuntimeError("shelfed did not start: " + (pathlib.Path(data_dir) / "server.log").read_text())
    yield base
    process.terminate()
    process.wait(timeout=10)
    log.close()
    shutil.rmtree(data_dir, ignore_errors=True)


@pytest.fixture(params=list(VIEWPORTS))
def browser(request):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    viewport = VIEWPORTS[request.param]
    driver.set_window_size(viewport["width"], viewport["height"])
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", viewport)
    driver.viewport_name = request.param
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()
