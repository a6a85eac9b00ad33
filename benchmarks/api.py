"""The JSON API's two budgets (issue 10), on a release build:

1. `GET /api/v1/books` for a 5,000-book library: server CPU per request (from /proc) and latency with wrk on one
   connection. Budget: 20 ms of server time.
2. A cached `GET /v1/search/isbn`: p50 latency on one keep-alive connection. Budget: 2 ms.
   Search is limited to 100 calls a minute per key (DESIGN §6), so instead of wrk the cached lookup is timed from
   Python over one raw keep-alive socket, 95 calls under each of 10 keys; Python's own time is included, so the
   figure is an upper bound on what the server takes."""
import os
import pathlib
import re
import socket
import statistics
import subprocess
import sys
import time

import requests

from bench_server import ROOT, running_server

sys.path.insert(0, str(ROOT / "Tests" / "e2e"))
from fake_books import FakeBooks  # noqa: E402

BOOKS = 5000
ISBN = "9780140446043"


def cpu_seconds(pid):
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def register_with_key(base, device):
    session = requests.Session()
    session.get(base + "/register")
    session.post(base + "/register", data={"_csrf": session.cookies["shelfed_csrf"], "username": "bench",
                                           "display_name": "Bench", "email": "bench@example.com",
                                           "password": "benchmark password"})
    return new_key(base, device)


def new_key(base, device):
    answer = requests.post(base + "/api/v1/sessions", json={"email": "bench@example.com",
                                                            "password": "benchmark password",
                                                            "device_name": device})
    answer.raise_for_status()
    return answer.json()["api_key"]


def seed_books(base, key):
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {key}"
    started = time.monotonic()
    for number in range(BOOKS):
        answer = session.post(base + "/api/v1/books", json={
            "title": f"Book {number:05d}", "authors": [f"Author {number % 97}"], "page_count": 300,
            "shelf_id": 1 + number % 3})
        assert answer.status_code == 201, answer.text
    print(f"seeded {BOOKS} books through POST /api/v1/books in {time.monotonic() - started:.1f} s")


def books_list(server, base, key):
    listing = requests.get(base + "/api/v1/books", headers={"Authorization": f"Bearer {key}"})
    assert listing.json()["book_count"] == BOOKS
    print(f"GET /api/v1/books: {len(listing.content) / 1024:.0f} KiB of JSON")
    cpu_before = cpu_seconds(server.pid)
    wrk = subprocess.run(["wrk", "-t1", "-c1", "-d10s", "--latency", "-H", f"Authorization: Bearer {key}",
                          base + "/api/v1/books"], capture_output=True, text=True, check=True).stdout
    cpu_used = cpu_seconds(server.pid) - cpu_before
    done = int(re.search(r"(\d+) requests in", wrk).group(1))
    print("wrk -t1 -c1 -d10s GET /api/v1/books:")
    print("\n".join(line for line in wrk.splitlines() if re.search(r"50%|99%|Requests/sec|Non-2xx", line)))
    print(f"server CPU per GET /api/v1/books: {cpu_used / done * 1000:.2f} ms")


def timed_lookups(host, port, key, count):
    """`count` cached ISBN lookups on one keep-alive connection; returns each one's seconds."""
    request = (f"GET /v1/search/isbn?isbn={ISBN} HTTP/1.1\r\nHost: {host}\r\n"
               f"Authorization: Bearer {key}\r\n\r\n").encode()
    times = []
    with socket.create_connection((host, port)) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        reader = sock.makefile("rb")
        for _ in range(count):
            started = time.perf_counter()
            sock.sendall(request)
            status = reader.readline()
            length = 0
            while (line := reader.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = reader.read(length)
            times.append(time.perf_counter() - started)
            assert b" 200 " in status, status + body
    return times


def cached_isbn(base):
    host, port = base.removeprefix("http://").split(":")
    keys = [new_key(base, f"bench device {number}") for number in range(10)]
    first = requests.get(base + f"/v1/search/isbn?isbn={ISBN}", headers={"Authorization": f"Bearer {keys[0]}"})
    assert first.status_code == 200 and first.headers["X-Cache"] == "MISS", first.text
    second = requests.get(base + f"/v1/search/isbn?isbn={ISBN}", headers={"Authorization": f"Bearer {keys[0]}"})
    assert second.headers["X-Cache"] == "HIT"
    times = []
    for key in keys:
        times += timed_lookups(host, int(port), key, 95)
    times.sort()
    print(f"cached GET /v1/search/isbn, one keep-alive connection, {len(times)} calls: "
          f"p50 {statistics.median(times) * 1000:.3f} ms, p90 {times[int(len(times) * 0.9)] * 1000:.3f} ms, "
          f"p99 {times[int(len(times) * 0.99)] * 1000:.3f} ms")


def main():
    fake = FakeBooks().start()
    try:
        with running_server(SHELFED_GOOGLE_BOOKS_URL=fake.base_url + "/books/v1",
                            SHELFED_OPEN_LIBRARY_URL=fake.base_url + "/ol") as (server, base, _):
            key = register_with_key(base, "bench seeder")
            seed_books(base, key)
            books_list(server, base, key)
            cached_isbn(base)
    finally:
        fake.shutdown()


if __name__ == "__main__":
    main()
