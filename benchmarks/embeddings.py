"""Search by meaning on a release build (DESIGN §14, issue 23): the encoder in-process (`shelfed model bench`), then
a 5,000-book library embedded in the background by a running server — how long it takes, what it does to the shelf
page's p99 and to memory — and a whole semantic search request.

    .venv/bin/python -u benchmarks/embeddings.py

Needs the release binary (`make release`), the model (`bash scripts/fetch-model.sh`) and wrk. The books are written
straight into the database of a server started without the model, so the seeding is quick and the baseline shelf
page is measured on the same library; the server is then started again with the model and embeds them."""
import datetime
import json
import os
import pathlib
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time

import requests

from bench_server import BINARY, ROOT, free_port, register, rss_kib

BOOKS = 5_000
WORDS = ("river winter letters island family war garden memory city secret journey music mother ship library storm "
         "village detective kingdom science recipe mountain friendship silence revolution machine ocean childhood "
         "empire poetry chess bread desert wizard school").split()


def start(data_dir, model_dir):
    port = free_port()
    env = dict(os.environ, SHELFED_PORT=str(port), SHELFED_DATA_DIR=str(data_dir), SHELFED_RESOURCES_DIR=str(ROOT),
               SHELFED_LOG_LEVEL="warning", SHELFED_MODEL_DIR=str(model_dir),
               SHELFED_GOOGLE_BOOKS_URL="http://127.0.0.1:9", SHELFED_OPEN_LIBRARY_URL="http://127.0.0.1:9",
               SHELFED_OPEN_LIBRARY_COVERS_URL="http://127.0.0.1:9")
    server = subprocess.Popen([str(BINARY), "serve"], env=env)
    base = f"http://127.0.0.1:{port}"
    for _ in range(500):
        try:
            requests.get(base + "/health", timeout=1)
            return server, base
        except requests.ConnectionError:
            time.sleep(0.02)
    raise RuntimeError("the server did not start")


def blurb(number):
    state = number * 2654435761 % 2**32
    words = []
    for _ in range(90):
        state = (state * 1103515245 + 12345) % 2**31
        words.append(WORDS[state % len(WORDS)])
    return " ".join(words).capitalize() + "."


def seed(database, user_id):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.000")
    with sqlite3.connect(database, timeout=30) as db:
        for number in range(BOOKS):
            cursor = db.execute(
                "INSERT INTO book (title, authors, description, categories, source, created_at, updated_at, "
                "owner_user_id) VALUES (?, ?, ?, ?, 'manual', ?, ?, ?)",
                (f"Book {number:04d}", json.dumps([f"Author {number % 97}"]), blurb(number),
                 json.dumps([WORDS[number % len(WORDS)].capitalize()]), now, now, user_id))
            db.execute("INSERT INTO user_book (user_id, book_id, shelf, favourite, added_at, updated_at) "
                       "VALUES (?, ?, 'want_to_read', 0, ?, ?)", (user_id, cursor.lastrowid, now, now))


def wrk(cookie, url, seconds=15, connections=16):
    out = subprocess.run(["wrk", f"-t{min(2, connections)}", f"-c{connections}", f"-d{seconds}s", "--latency", "-H", f"Cookie: {cookie}",
                          url], capture_output=True, text=True, check=True).stdout
    def ms(label):
        value, unit = re.search(rf"{label}\s+([\d.]+)(us|ms|s)", out).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    return ms("50%"), ms("99%"), float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def memory(pid):
    """RSS split as the kernel counts it: anonymous (heap, buffers) and file-backed (the mapped weights, which the
    kernel can drop at will and reads back on demand)."""
    return {field: rss_kib(pid, field) / 1024 for field in ("VmRSS", "RssAnon", "RssFile")}


def largest_mappings(pid, count=4):
    sizes, current = {}, None
    for line in pathlib.Path(f"/proc/{pid}/smaps").read_text().splitlines():
        parts = line.split()
        if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
            current = parts[5] if len(parts) > 5 else "[anonymous]"
        elif parts and parts[0] == "Rss:":
            sizes[current] = sizes.get(current, 0) + int(parts[1])
    return ", ".join(f"{pathlib.Path(name).name or name} {kib / 1024:.1f} MiB"
                     for name, kib in sorted(sizes.items(), key=lambda item: -item[1])[:count])


def embedded(database):
    with sqlite3.connect(database, timeout=30) as db:
        return db.execute("SELECT COUNT(*) FROM book_embedding WHERE vector IS NOT NULL").fetchone()[0]


def main():
    model_dir = ROOT / "models" / "all-MiniLM-L6-v2"
    print(subprocess.run([str(BINARY), "model", "bench", "--texts", "64"], capture_output=True, text=True, check=True,
                         env=dict(os.environ, SHELFED_MODEL_DIR=str(model_dir))).stdout)
    folder = pathlib.Path(tempfile.mkdtemp(prefix="shelfed-bench-embeddings-"))
    data_dir = folder / "data"
    database = data_dir / "shelfed.sqlite"
    try:
        server, base = start(data_dir, folder / "no-model")
        session, _ = register(base)
        cookie = "; ".join(f"{k}={v}" for k, v in session.cookies.items())
        seed(database, 1)
        assert session.get(base + "/shelves/want-to-read").text.count('class="card"') == 60
        time.sleep(1)
        print("RSS without the model, {BOOKS} books: {VmRSS:.1f} MiB (anonymous {RssAnon:.1f}, files {RssFile:.1f})"
              .format(BOOKS=BOOKS, **memory(server.pid)))
        p50, p99, rate = wrk(cookie, base + "/shelves/want-to-read")
        print(f"shelf page, {BOOKS} books, no embedding running: p50 {p50:.1f} ms, p99 {p99:.1f} ms, {rate:.0f} req/s")
        server.terminate()
        server.wait(timeout=10)

        server, base = start(data_dir, model_dir)
        started = time.monotonic()
        idle = rss_kib(server.pid)
        p50, p99, rate = wrk(cookie, base + "/shelves/want-to-read")
        print(f"shelf page while embedding: p50 {p50:.1f} ms, p99 {p99:.1f} ms, {rate:.0f} req/s")
        peak = {"VmRSS": 0, "RssAnon": 0, "RssFile": 0}
        deadline = started + 30 * 60
        while embedded(database) < BOOKS and time.monotonic() < deadline:
            peak = {field: max(value, memory(server.pid)[field]) for field, value in peak.items()}
            time.sleep(2)
        took = time.monotonic() - started
        done = embedded(database)
        print(f"embedded {done} of {BOOKS} books in {took / 60:.1f} min ({took / max(done, 1) * 1000:.0f} ms a book, "
              f"with the shelf-page load running for the first 15 s)")
        print("RSS while embedding, peak: {VmRSS:.1f} MiB (anonymous {RssAnon:.1f}, files {RssFile:.1f})".format(**peak))
        print("largest mappings at the end:", largest_mappings(server.pid))
        query = "a+detective+story+set+on+a+stormy+island"
        p50, p99, rate = wrk(cookie, base + f"/library/search?q={query}", seconds=10, connections=1)
        print(f"semantic search request over {BOOKS} books, one at a time: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
        time.sleep(65)
        print("RSS a minute after the last search: {VmRSS:.1f} MiB (anonymous {RssAnon:.1f}, files {RssFile:.1f})"
              .format(**memory(server.pid)))
        print("largest mappings then:", largest_mappings(server.pid))
        server.terminate()
        server.wait(timeout=10)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
