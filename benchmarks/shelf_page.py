"""Seeds 500 books for one user on a release build, then measures the 60-book shelf page with wrk
and the server's idle resident memory. Prints the figures; copy them into benchmarks/README.md."""
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
BOOKS = 500


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_kib(pid):
    status = pathlib.Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))


def main():
    data_dir = tempfile.mkdtemp(prefix="shelfed-bench-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ, SHELFED_PORT=str(port), SHELFED_DATA_DIR=data_dir, SHELFED_RESOURCES_DIR=str(ROOT),
               SHELFED_LOG_LEVEL="warning")
    started = time.monotonic()
    server = subprocess.Popen([str(BINARY), "serve"], env=env)
    try:
        while True:
            try:
                requests.get(base + "/health", timeout=1)
                break
            except requests.ConnectionError:
                time.sleep(0.02)
        print(f"start to first answer: {(time.monotonic() - started) * 1000:.0f} ms")
        time.sleep(1)
        print(f"idle RSS after start: {rss_kib(server.pid) / 1024:.1f} MiB")

        session = requests.Session()
        session.get(base + "/register")
        token = session.cookies["shelfed_csrf"]
        session.post(base + "/register", data={"_csrf": token, "username": "bench", "display_name": "Bench",
                                               "email": "bench@example.com", "password": "benchmark password"})
        for number in range(BOOKS):
            session.post(base + "/books", data={"_csrf": token, "title": f"Book {number:04d}",
                                                "authors": f"Author {number % 37}", "page_count": "300",
                                                "shelf": "want_to_read"}, allow_redirects=False)
        page = session.get(base + "/shelves/want-to-read")
        assert page.text.count('class="card"') == 60, "the shelf page should list 60 books"
        time.sleep(2)
        print(f"idle RSS with {BOOKS} books seeded: {rss_kib(server.pid) / 1024:.1f} MiB")

        cookie = "; ".join(f"{k}={v}" for k, v in session.cookies.items())
        cpu_before = cpu_seconds(server.pid)
        wrk = subprocess.run(
            ["wrk", "-t2", "-c16", "-d15s", "--latency", "-H", f"Cookie: {cookie}", base + "/shelves/want-to-read"],
            capture_output=True, text=True, check=True)
        cpu_used = cpu_seconds(server.pid) - cpu_before
        print(wrk.stdout)
        requests_done = int(re.search(r"(\d+) requests in", wrk.stdout).group(1))
        print(f"server CPU per shelf page: {cpu_used / requests_done * 1000:.3f} ms")
        print(f"RSS after load: {rss_kib(server.pid) / 1024:.1f} MiB")
    finally:
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(data_dir, ignore_errors=True)


def cpu_seconds(pid):
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
