"""Shared by the benchmark scripts: start a release `shelfed` on a free port with a temporary data folder,
and register one user."""
import contextlib
import os
import pathlib
import re
import shutil
import socket
import subprocess
import tempfile
import time

import requests

ROOT = pathlib.Path(__file__).resolve().parents[1]
BINARY = pathlib.Path(os.environ.get("SHELFED_BINARY", ROOT / ".build" / "release" / "shelfed"))


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def running_server(binary=BINARY, wrapper=(), **settings):
    """Yields (process, base URL, data folder); extra SHELFED_* settings are passed as keyword arguments.

    `wrapper` is a command the server runs under (scripts/link_order.py records it with perf)."""
    # Nothing a benchmark does reaches the real book services: without a fake, they point at a closed port.
    for name in ("SHELFED_GOOGLE_BOOKS_URL", "SHELFED_OPEN_LIBRARY_URL", "SHELFED_OPEN_LIBRARY_COVERS_URL",
                 "SHELFED_TMDB_URL", "SHELFED_TMDB_IMAGES_URL", "SHELFED_TVMAZE_URL", "SHELFED_WIKIDATA_URL"):
        settings.setdefault(name, "http://127.0.0.1:9")
    data_dir = pathlib.Path(tempfile.mkdtemp(prefix="shelfed-bench-"))
    port = free_port()
    env = dict(os.environ, SHELFED_PORT=str(port), SHELFED_DATA_DIR=str(data_dir / "data"),
               SHELFED_RESOURCES_DIR=str(ROOT), SHELFED_LOG_LEVEL="warning", SHELFED_REGISTRATION="open",
               **settings)
    base = f"http://127.0.0.1:{port}"
    started = time.monotonic()
    server = subprocess.Popen([*wrapper, str(binary), "serve"], env=env)
    try:
        while True:
            try:
                requests.get(base + "/health", timeout=1)
                break
            except requests.ConnectionError:
                if server.poll() is not None:
                    raise RuntimeError(f"{binary} exited with status {server.returncode} before answering")
                time.sleep(0.02)
        server.started_in = time.monotonic() - started
        yield server, base, data_dir
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(data_dir, ignore_errors=True)


def register(base):
    """A signed-in session for a new user, and the CSRF token its forms need."""
    session = requests.Session()
    session.get(base + "/register")
    token = session.cookies["shelfed_csrf"]
    response = session.post(base + "/register", data={"_csrf": token, "username": "bench", "display_name": "Bench",
                                                      "email": "bench@example.com", "password": "benchmark password"})
    assert response.status_code == 200 and response.url == base + "/", "registration failed"
    # Signed in, the forms carry the session's own token (a new one at every sign-in), not the cookie's.
    token = re.search(r'name="_csrf" value="([0-9a-f]{64})"', response.text).group(1)
    return session, token


def rss_kib(pid, field="VmRSS"):
    status = pathlib.Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith(field + ":")))
