"""Seeds 500 books for one user on a release build, then measures the 60-book shelf page with wrk
and the server's idle resident memory. Prints the figures; copy them into benchmarks/README.md."""
import os
import pathlib
import re
import subprocess
import time

from bench_server import register, rss_kib, running_server

BOOKS = 500


def stat_fields(pid):
    return pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pid):
    fields = stat_fields(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def minor_faults(pid):
    return int(stat_fields(pid)[7])


def main():
    with running_server() as (server, base, _):
        print(f"start to first answer: {server.started_in * 1000:.0f} ms")
        time.sleep(1)
        print(f"idle RSS after start: {rss_kib(server.pid) / 1024:.1f} MiB")
        # Two seconds after start the server gives back what its services' own start-up touched (IdleMemoryService).
        time.sleep(3)
        print(f"idle RSS 4 s after start: {rss_kib(server.pid) / 1024:.1f} MiB")
        session, token = register(base)
        for number in range(BOOKS):
            session.post(base + "/books", data={"_csrf": token, "title": f"Book {number:04d}",
                                                "authors": f"Author {number % 37}", "page_count": "300",
                                                "shelf": "want_to_read"}, allow_redirects=False)
        page = session.get(base + "/shelves/want-to-read")
        assert page.text.count('class="card"') == 60, "the shelf page should list 60 books"
        time.sleep(2)
        print(f"idle RSS with {BOOKS} books seeded: {rss_kib(server.pid) / 1024:.1f} MiB")

        cookie = "; ".join(f"{k}={v}" for k, v in session.cookies.items())
        cpu_before, faults_before = cpu_seconds(server.pid), minor_faults(server.pid)
        wrk = subprocess.run(
            ["wrk", "-t2", "-c16", "-d15s", "--latency", "-H", f"Cookie: {cookie}", base + "/shelves/want-to-read"],
            capture_output=True, text=True, check=True)
        cpu_used = cpu_seconds(server.pid) - cpu_before
        faults = minor_faults(server.pid) - faults_before
        print(wrk.stdout)
        requests_done = int(re.search(r"(\d+) requests in", wrk.stdout).group(1))
        print(f"server CPU per shelf page: {cpu_used / requests_done * 1000:.3f} ms")
        # Memory malloc gave back and took again on the next request shows up here (IdleMemory.trimThreshold).
        print(f"page faults per shelf page: {faults / requests_done:.1f}")
        print(f"RSS after load: {rss_kib(server.pid) / 1024:.1f} MiB")
        # The server gives back what the load touched once it has been quiet for 30 s (IdleMemoryService); with the
        # model in models/, the 500 books are embedded after the load and the model is closed a minute after that.
        time.sleep(100)
        print(f"idle RSS 100 s after the load: {rss_kib(server.pid) / 1024:.1f} MiB "
              f"(anonymous {rss_kib(server.pid, 'RssAnon') / 1024:.1f})")


if __name__ == "__main__":
    main()
