"""Starts the release `shelfed` (or $SHELFED_BINARY) on a free loopback port with a temporary data folder, short
connection deadlines and at most 1,024 file descriptors, the usual Linux default; with a fake Google Books."""
import os
import pathlib
import re
import resource
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

REQUEST_TIMEOUT = 2
TOKEN = re.compile(r'name="_csrf" value="([0-9a-f]{64})"')


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """One running server process; `alive()` is checked after every hostile request."""

    def __init__(self, fake_books, data_dir=None, extra_env=None):
        binary = pathlib.Path(os.environ.get("SHELFED_BINARY", ROOT / ".build" / "release" / "shelfed"))
        # A data folder given by the caller is reused: a restart after `kill -9` finds what the last run left.
        self.data_dir = data_dir or pathlib.Path(tempfile.mkdtemp(prefix="shelfed-hostile-"))
        self.base = f"http://127.0.0.1:{free_port()}"
        env = dict(os.environ, SHELFED_HOST="127.0.0.1", SHELFED_PORT=self.base.rsplit(":", 1)[1],
                   SHELFED_DATA_DIR=str(self.data_dir / "data"), SHELFED_RESOURCES_DIR=str(ROOT),
                   SHELFED_LOG_LEVEL="warning", SHELFED_REQUEST_TIMEOUT=str(REQUEST_TIMEOUT), SHELFED_REGISTRATION="open",
                   SHELFED_GOOGLE_BOOKS_URL=fake_books.base_url + "/books/v1",
                   SHELFED_OPEN_LIBRARY_URL=fake_books.base_url + "/ol",
                   SHELFED_OPEN_LIBRARY_COVERS_URL=fake_books.base_url + "/olcovers",
                   SHELFED_TVMAZE_URL=fake_books.base_url + "/tvmaze", SHELFED_WIKIDATA_URL=fake_books.base_url + "/wikidata",
                   SHELFED_TMDB_URL="http://127.0.0.1:9", SHELFED_TMDB_IMAGES_URL="http://127.0.0.1:9",
                   SHELFED_GEMINI_API_KEY="test-key", SHELFED_GEMINI_URL=fake_books.base_url + "/gemini")
        env.update(extra_env or {})  # a test's own settings, e.g. SHELFED_MAX_CONNECTIONS
        self.log = open(self.data_dir / "server.log", "a")

        def limit_descriptors():
            resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

        self.process = subprocess.Popen([str(binary), "serve"], env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                        preexec_fn=limit_descriptors)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                if requests.get(self.base + "/health", timeout=1).status_code == 200:
                    return
            except requests.ConnectionError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("shelfed did not start")

    def alive(self):
        return self.process.poll() is None

    def open_descriptors(self):
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def stop(self, keep_data=False):
        if self.alive():
            self.process.terminate()
            self.process.wait(timeout=10)
        self.log.close()
        if not keep_data:
            shutil.rmtree(self.data_dir, ignore_errors=True)

    def kill(self):
        """`kill -9`: no shutdown, no flush; the data folder stays for the next start."""
        self.process.kill()
        self.process.wait(timeout=10)
        self.log.close()


def location_path(answer):
    """The path a redirect points at, without the query or fragment a page adds for its toast (?done=added…)."""
    return answer.headers["Location"].split("#", 1)[0].split("?", 1)[0]


def location_id(answer):
    """The id at the end of a redirect's path: /books/12?done=added → 12."""
    return int(location_path(answer).rsplit("/", 1)[1])


class Reader:
    """A signed-in person: a requests session and the CSRF token of the last page with a form."""

    def __init__(self, base, username):
        self.base = base
        self.session = requests.Session()
        page = self.session.get(base + "/register")
        self.token = TOKEN.search(page.text).group(1)
        answer = self.post("/register", {"username": username, "display_name": username.title(),
                                         "email": f"{username}@example.com", "password": "correct horse battery"})
        assert answer.status_code == 200 and answer.url == base + "/", answer.text[:300]

    def remember(self, response):
        found = TOKEN.search(response.text)
        if found:
            self.token = found.group(1)
        return response

    def get(self, path, **kwargs):
        return self.remember(self.session.get(self.base + path, timeout=30, **kwargs))

    def post(self, path, fields, **kwargs):
        data = dict(fields)
        data.setdefault("_csrf", self.token)
        return self.remember(self.session.post(self.base + path, data=data, timeout=30, **kwargs))

    def add_book(self, title, **fields):
        answer = self.post("/books", {"title": title, **fields}, allow_redirects=False)
        assert answer.status_code == 303, answer.text[:300]
        return location_id(answer)


@pytest.fixture(scope="session")
def fake_books():
    fake = FakeBooks().start()
    yield fake
    fake.shutdown()


@pytest.fixture(scope="session")
def server(fake_books):
    running = Server(fake_books)
    yield running
    assert running.alive(), "the server died during the hostile suite"
    running.stop()


@pytest.fixture(scope="session")
def alice(server):
    return Reader(server.base, "alice")
