"""An idle server with a large library (issue 35, finding 2): 11,000 books, each with a meaning vector, and the
model folder present, as after a big import has been read for meaning. After a minute at rest, the server's RSS and
the CPU ticks it spends over 30 s with nobody using it (budget: 30 MB, about one tick per 10 s).

    .venv/bin/python -u benchmarks/idle_library.py

Needs the release binary (`make release`). The vectors are random, written straight into the running server's
database, so no model time is counted; the server finds nothing left to embed.
"""
import os
import time

from bench_server import ROOT, register, rss_kib, running_server
from home_read_next import seed

BOOKS = 11_000
REST = 60
WATCH = 30


def cpu_ticks(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def main():
    with running_server(SHELFED_MODEL_DIR=str(ROOT / "models" / "all-MiniLM-L6-v2")) as (server, base, data_dir):
        session, _ = register(base)
        wanted, loved = seed(data_dir, BOOKS)
        print(f"{BOOKS} books with vectors: {wanted} on Want to read, {loved} loved")
        assert session.get(base + "/").status_code == 200
        assert session.get(base + "/shelves/read").status_code == 200
        time.sleep(REST)
        before = cpu_ticks(server.pid)
        time.sleep(WATCH)
        ticks = cpu_ticks(server.pid) - before
        print(f"idle after {REST} s: RSS {rss_kib(server.pid) / 1024:.1f} MiB, "
              f"{ticks} CPU ticks in {WATCH} s ({ticks * 10 / WATCH:.1f} per 10 s, {os.sysconf('SC_CLK_TCK')} a second)")


if __name__ == "__main__":
    main()
