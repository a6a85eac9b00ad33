"""Starts the release `shelfed` (or $SHELFED_BINARY) on a free loopback port with a temporary data folder and a
fake Google Books / Open Library, for the API contract tests and schemathesis."""
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import pytest
import requests

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))
from fake_books import FakeBooks  # noqa: E402


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def fake_books():
    fake = FakeBooks().start()
    yield fake
    fake.shutdown()


@pytest.fixture(scope="session")
def server(fake_books):
    binary = pathlib.Path(os.environ.get("SHELFED_BINARY", ROOT / ".build" / "release" / "shelfed"))
    data_dir = pathlib.Path(tempfile.mkdtemp(prefix="shelfed-api-"))
    port = free_port()
    env = dict(os.environ, SHELFED_HOST="127.0.0.1", SHELFED_PORT=str(port), SHELFED_DATA_DIR=str(data_dir / "data"),
               SHELFED_RESOURCES_DIR=str(ROOT), SHELFED_LOG_LEVEL="warning", SHELFED_REGISTRATION="open",
               SHELFED_GOOGLE_BOOKS_URL=fake_books.base_url + "/books/v1",
               SHELFED_OPEN_LIBRARY_URL=fake_books.base_url + "/ol",
               SHELFED_OPEN_LIBRARY_COVERS_URL=fake_books.base_url + "/olcovers",
               SHELFED_TVMAZE_URL=fake_books.base_url + "/tvmaze", SHELFED_WIKIDATA_URL=fake_books.base_url + "/wikidata",
               SHELFED_TMDB_URL="http://127.0.0.1:9", SHELFED_TMDB_IMAGES_URL="http://127.0.0.1:9",
               SHELFED_GEMINI_API_KEY="test-key", SHELFED_GEMINI_URL=fake_books.base_url + "/gemini")
    log = open(data_dir / "server.log", "w")
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
        raise RuntimeError("shelfed did not start: " + (data_dir / "server.log").read_text())
    process.base = base
    process.log_path = data_dir / "server.log"
    yield process
    assert process.poll() is None, "the server died during the API suite"
    process.terminate()
    process.wait(timeout=10)
    log.close()
    shutil.rmtree(data_dir, ignore_errors=True)


def register(base, username, password="correct horse battery"):
    """Makes an account through the web form, as a person would before pointing an app at the server."""
    session = requests.Session()
    page = session.get(base + "/register")
    token = page.text.split('name="_csrf" value="', 1)[1][:64]
    answer = session.post(base + "/register", data={
        "_csrf": token, "username": username, "display_name": username.title(),
        "email": f"{username}@example.com", "password": password})
    assert answer.status_code == 200, answer.text[:300]
    return f"{username}@example.com", password
