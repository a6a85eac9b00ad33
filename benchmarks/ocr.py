"""Reading the words on a page photo (tesseract, in the background): time per 12 MP page photo and the peak RSS of
the tesseract process; and the shelf page's p99 under wrk with no OCR running and with OCR running all the time
(the issue's budget: at most 20 % slower).

    .venv/bin/python -u benchmarks/ocr.py
"""
import pathlib
import re
import statistics
import subprocess
import sys
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests" / "e2e"))
import capture_images as images  # noqa: E402
from bench_server import register, rss_kib, running_server  # noqa: E402

BOOKS = 500
PAGE = [
    "It is a truth universally acknowledged, that a single man in possession",
    "of a good fortune, must be in want of a wife. However little known the",
    "feelings or views of such a man may be on his first entering a neighbour-",
    "hood, this truth is so well fixed in the minds of the surrounding families,",
    "that he is considered the rightful property of some one or other of their",
    "daughters. My dear Mr. Bennet, said his lady to him one day, have you",
    "heard that Netherfield Park is let at last? Mr. Bennet replied that he",
    "had not. But it is, returned she; for Mrs. Long has just been here, and",
    "she told me all about it. Mr. Bennet made no answer. Do you not want to",
    "know who has taken it? cried his wife impatiently. You want to tell me,",
] * 3


def children(pid):
    found = []
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def main():
    photo = images.text_photo(PAGE, size=(3000, 4000), font_size=64, angle=0.8, quality=90)
    print(f"page photo: 3000 × 4000 (12 MP), {len(photo) / 1e6:.1f} MB, {len(PAGE)} lines of print")
    with running_server() as (server, base, _):
        session, token = register(base)
        for number in range(BOOKS):
            session.post(base + "/books", data={"_csrf": token, "title": f"Book {number:04d}",
                                                "authors": f"Author {number % 37}", "shelf": "want_to_read"},
                         allow_redirects=False)
        answer = session.post(base + "/books", data={"_csrf": token, "title": "Pride and Prejudice",
                                                     "shelf": "reading"}, allow_redirects=False)
        book = int(answer.headers["Location"].rsplit("/", 1)[1])

        def upload():
            answer = session.post(base + f"/books/{book}/photos", data={"_csrf": token},
                                  files={"photo": ("page.jpg", photo, "image/jpeg")}, allow_redirects=False)
            assert answer.status_code == 303, answer.text[:300]
            return int(answer.headers["Location"].rsplit("/", 1)[1])

        def wait_read(photo_id, peak):
            while True:
                for child in children(server.pid):
                    try:
                        peak[0] = max(peak[0], rss_kib(child))
                    except (OSError, StopIteration):
                        pass
                page = session.get(base + f"/photos/{photo_id}").text
                if "Reading the words" not in page:
                    return page
                time.sleep(0.02)

        wait_read(upload(), [0])  # the language model into the page cache
        times, peak = [], [0]
        for _ in range(5):
            photo_id = upload()
            started = time.perf_counter()
            page = wait_read(photo_id, peak)
            times.append(time.perf_counter() - started)
            assert "universally acknowledged" in page, "the page's words were not read"
        print(f"OCR per page photo, upload answered → words stored: median {statistics.median(times):.2f} s "
              f"(min {min(times):.2f}, max {max(times):.2f}); tesseract peak RSS seen {peak[0] / 1024:.0f} MiB; "
              f"server RSS {rss_kib(server.pid) / 1024:.0f} MiB")

        cookie = "; ".join(f"{k}={v}" for k, v in session.cookies.items())

        def wrk():
            run = subprocess.run(["wrk", "-t2", "-c16", "-d15s", "--latency", "-H", f"Cookie: {cookie}",
                                  base + "/shelves/want-to-read"], capture_output=True, text=True, check=True)
            p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", run.stdout)
            scale = {"us": 0.001, "ms": 1, "s": 1000}[p99.group(2)]
            rate = float(re.search(r"Requests/sec:\s+([\d.]+)", run.stdout).group(1))
            return float(p99.group(1)) * scale, rate

        idle = wrk()
        # Keep the reader busy for the whole run: a queue longer than 15 s of reading.
        queued = [upload() for _ in range(12)]
        busy = wrk()
        still_waiting = sum("Reading the words" in session.get(base + f"/photos/{i}").text for i in queued)
        print(f"shelf page (wrk -t2 -c16 -d15s, {BOOKS} books): idle p99 {idle[0]:.1f} ms, {idle[1]:.0f} req/s; "
              f"during OCR p99 {busy[0]:.1f} ms, {busy[1]:.0f} req/s ({still_waiting} of 12 photos still queued "
              f"at the end); p99 change {100 * (busy[0] / idle[0] - 1):+.0f} %")


if __name__ == "__main__":
    main()
