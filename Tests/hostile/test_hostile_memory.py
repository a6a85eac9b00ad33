"""Hostile images cannot exhaust memory (DESIGN §11, issue 20 finding 4): four small Adam7-interlaced 100-megapixel
PNGs sent at once to every image route keep the server under 200 MB and are refused, and eight barcode scans of a
page with no barcode at once never run more than two tesseract processes."""
import os
import struct
import threading
import time
import zlib

import pytest
import requests

import capture_images as images
from conftest import Reader, Server

SIDE = 10_000
PEAK_RSS_BUDGET = 200 * 1_048_576
MOST_TESSERACTS = 2
# Adam7: each pass's first column and row, and its steps across and down.
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def interlaced_png(width=SIDE, height=SIDE):
    """A black RGB Adam7 PNG of width × height, compressed as it is made: 300 MB of pixels in ~300 KB."""
    compressor = zlib.compressobj(9)
    compressed = []
    for x0, y0, dx, dy in ADAM7:
        columns, rows = (width - x0 + dx - 1) // dx, (height - y0 + dy - 1) // dy
        if not columns or not rows:
            continue
        line = bytes(1 + 3 * columns)  # filter byte 0, then black pixels
        block = line * max(1, (4 * 1_048_576) // len(line))
        lines_per_block = len(block) // len(line)
        for start in range(0, rows, lines_per_block):
            count = min(lines_per_block, rows - start)
            compressed.append(compressor.compress(block if count == lines_per_block else line * count))
    compressed.append(compressor.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 1)  # 8-bit RGB, interlace method 1 (Adam7)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", b"".join(compressed)) + chunk(b"IEND", b"")


def memory(pid):
    """VmHWM and VmRSS of the process, in bytes."""
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, rest = line.partition(":")
            if name in ("VmHWM", "VmRSS"):
                values[name] = int(rest.split()[0]) * 1024
    return values["VmHWM"], values["VmRSS"]


def tesseracts_under(pid):
    """How many `tesseract` processes descend from `pid` (run directly or through `chrt`)."""
    parents, names = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                text = stat.read()
        except OSError:
            continue
        names[int(entry)] = text[text.index("(") + 1:text.rindex(")")]
        parents[int(entry)] = int(text.rsplit(")", 1)[1].split()[1])
    count = 0
    for child, name in names.items():
        if name != "tesseract":
            continue
        ancestor, steps = parents.get(child), 0
        while ancestor and ancestor != pid and steps < 16:
            ancestor, steps = parents.get(ancestor), steps + 1
        count += ancestor == pid
    return count


class Sampler(threading.Thread):
    """Samples the server's memory and tesseract children every 50 ms until stopped (at most 120 s)."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.stop, self.most_rss, self.most_tesseracts = pid, threading.Event(), 0, 0

    def run(self):
        deadline = time.monotonic() + 120
        while not self.stop.is_set() and time.monotonic() < deadline:
            try:
                self.most_rss = max(self.most_rss, memory(self.pid)[1])
                self.most_tesseracts = max(self.most_tesseracts, tesseracts_under(self.pid))
            except (OSError, KeyError):
                return
            time.sleep(0.05)

    def finish(self):
        self.stop.set()
        self.join(timeout=5)


@pytest.fixture(scope="module")
def fresh(fake_books):
    server = Server(fake_books)
    try:
        reader = Reader(server.base, "holder")
        answer = requests.post(server.base + "/api/v1/sessions",
                               json={"email": "holder", "password": "correct horse battery"}, timeout=10)
        assert answer.status_code in (200, 201), answer.text
        yield server, reader, answer.json()["api_key"]
    finally:
        server.stop()


def all_at_once(calls):
    answers = [None] * len(calls)

    def run(index):
        try:
            answers[index] = calls[index]()
        except requests.RequestException as error:
            answers[index] = type(error).__name__

    threads = [threading.Thread(target=run, args=(index,), daemon=True) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=150)
    return answers


def test_four_interlaced_100_megapixel_pngs_at_once_stay_under_budget(fresh):
    server, reader, key = fresh
    png = interlaced_png()
    book = reader.add_book("Hostile pictures")
    reader.get(f"/books/{book}/photos/new")
    bearer = {"Authorization": f"Bearer {key}"}
    upload = {"photo": ("page.png", png, "image/png")}
    routes = {
        "web photo": lambda: reader.session.post(
            server.base + f"/books/{book}/photos", data={"_csrf": reader.token}, files=upload,
            allow_redirects=False, timeout=120).status_code,
        "API photo": lambda: requests.post(server.base + f"/api/v1/books/{book}/photos", headers=bearer,
                                           files=upload, timeout=120).status_code,
        "barcode scan": lambda: requests.post(server.base + "/api/v1/scans/barcode", headers=bearer, files=upload,
                                              timeout=120).status_code,
        "shelf scan": lambda: requests.post(server.base + "/api/v1/scans/shelf", headers=bearer, files=upload,
                                            timeout=120).status_code,
    }
    before, _ = memory(server.process.pid)
    sampler = Sampler(server.process.pid)
    sampler.start()
    try:
        answers = dict(zip(routes, all_at_once(list(routes.values()))))
    finally:
        sampler.finish()
    assert server.alive(), "the server died"
    peak, _ = memory(server.process.pid)
    print(f"{len(png):,} B interlaced {SIDE} × {SIDE} PNG to 4 routes at once: peak RSS {peak / 1_048_576:.0f} MB "
          f"(before {before / 1_048_576:.0f} MB, sampled {sampler.most_rss / 1_048_576:.0f} MB); answers {answers}")
    assert peak <= PEAK_RSS_BUDGET, f"peak RSS {peak / 1_048_576:.0f} MB > 200 MB; answers {answers}"
    assert all(isinstance(status, int) and 400 <= status < 500 for status in answers.values()), answers
    assert requests.get(server.base + "/health", timeout=5).status_code == 200


def test_eight_barcode_scans_of_a_text_page_run_at_most_two_tesseracts(fresh):
    server, _, key = fresh
    page = images.text_photo(["Chapter One", "It was the best of times, it was the worst of times,",
                              "it was the age of wisdom, it was the age of foolishness,",
                              "it was the epoch of belief, it was the epoch of incredulity,",
                              "it was the season of Light, it was the season of Darkness,",
                              "it was the spring of hope, it was the winter of despair."], size=(1600, 1200))
    bearer = {"Authorization": f"Bearer {key}"}

    def scan():
        return requests.post(server.base + "/api/v1/scans/barcode", headers=bearer,
                             files={"photo": ("page.jpg", page, "image/jpeg")}, timeout=120)

    sampler = Sampler(server.process.pid)
    sampler.start()
    try:
        answers = all_at_once([scan] * 8)
    finally:
        sampler.finish()
    statuses = [answer.status_code if isinstance(answer, requests.Response) else answer for answer in answers]
    print(f"8 barcode scans of a text page at once: most tesseract processes {sampler.most_tesseracts}, "
          f"peak RSS sampled {sampler.most_rss / 1_048_576:.0f} MB; answers {statuses}")
    assert server.alive()
    assert sampler.most_tesseracts <= MOST_TESSERACTS, f"{sampler.most_tesseracts} tesseract processes at once"
    # Each is answered: a 200 saying no ISBN was found, or a 429/503 asking to try again.
    assert all(status in (200, 429, 503) for status in statuses), statuses
