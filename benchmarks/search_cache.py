"""Cached search latency and request coalescing, against the fake Google Books of the browser suite.

Starts the release build pointed at a local fake (which takes 300 ms per search), then:
1. 50 concurrent identical searches for a query nobody has asked yet: counts the upstream calls;
2. the latency of the now-cached answer with wrk on one connection (p50), then on 16."""
import concurrent.futures
import re
import subprocess
import sys

import requests

from bench_server import ROOT, register, running_server

sys.path.insert(0, str(ROOT / "Tests" / "e2e"))
from fake_books import FakeBooks  # noqa: E402


def main():
    fake = FakeBooks(delay=0.3).start()
    try:
        with running_server(SHELFED_GOOGLE_BOOKS_URL=fake.base_url + "/books/v1",
                            SHELFED_OPEN_LIBRARY_URL=fake.base_url + "/ol") as (_, base, _):
            session, _ = register(base)
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
        fake.shutdown()


if __name__ == "__main__":
    main()
