"""Cached search latency and request coalescing, against the fake Google Books of the browser suite.

Starts the release build pointed at a local fake (which takes 300 ms per search), then:
1. 50 concurrent identical searches for a query nobody has asked yet: counts the upstream calls;
2. the latency of the now-cached answer with wrk on one connection (p50), then on 16."""
import concurrent.futures
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import requests

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))
from fake_books import FakeBooks  # noqa: E402

BINARY = pathlib.Path(os.environ.get("SHELFED_BINARY", ROOT / ".build" / "release" / "shelfed"))


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main():
    fake = FakeBooks(delay=0.3).start()
    data_dir = tempfile.mkdtemp(prefix="shelfed-bench-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, SHELFED_PORT=str(port), SHELFED_DATA_DIR=data_dir, SHELFED_RESOURCES_DIR=str(ROOT),
               SHELFED_LOG_LEVEL="warning", SHELFED_GOOGLE_BOOKS_URL=fake.base_url + "/books/v1",
               SHELFED_OPEN_LIBRARY_URL=fake.base_url + "/ol")
    server = subprocess.Popen([str(BINARY), "serve"], env=env)
    try:
        while True:
            try:
                requests.get(base + "/health", timeout=1)
                break
            except requests.ConnectionError:
                time.sleep(0.02)
        session = requests.Session()
        session.get(base + "/register")
        token = session.cookies["shelfed_csrf"]
        session.post(base + "/register", data={"_csrf": token, "username": "bench", "display_name": "Bench",
                                               "email": "bench@example.com", "password": "benchmark password"})
        cookies = dict(session.cookies)
        url = base + "/search?q=harry+potter"

        def fetch(_):
            return requests.get(url, cookies=cookies, timeout=10).status_code

        with concurrent.futures.ThreadPoolExecutor(max_workers=50) as pool:
            statuses = list(pool.map(fetch, range(50)))
        print(f"50 concurrent identical searches: statuses {sorted(set(statuses))}, "
              f"upstream calls {fake.search_requests}")

        assert session.get(url).status_code == 200
        cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        for threads, connections in ((1, 1), (2, 16)):
            wrk = subprocess.run(
                ["wrk", f"-t{threads}", f"-c{connections}", "-d10s", "--latency", "-H", f"Cookie: {cookie}", url],
                capture_output=True, text=True, check=True).stdout
            print(f"wrk -t{threads} -c{connections} -d10s on the cached search page (the whole HTML page):")
            print("\n".join(line for line in wrk.splitlines() if re.search(r"50%|99%|Requests/sec|Non-2xx", line)))
        print(f"upstream calls after all of it: {fake.search_requests}")
    finally:
        server.terminate()
        server.wait(timeout=10)
        fake.shutdown()
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
