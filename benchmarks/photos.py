"""Photo pipeline: time for one 12-megapixel JPEG upload to be stored with its display image and thumbnail,
the time to turn a stored 12 MP photo (display image and thumbnail made again from the original), and the
server's peak RSS while 8 clients upload ~12 MB photos at once. Needs `vips` (Debian libvips-tools)
to make the test photo, and .build/release/shelfed."""
import concurrent.futures
import pathlib
import shutil
import statistics
import subprocess
import tempfile
import time

import requests

from bench_server import ROOT, register, rss_kib, running_server

SOURCE = ROOT / "Tests" / "Fixtures" / "images" / "Landscape_1.jpg"


def make_photo(folder):
    """A 4200×2800 (11.8 MP) JPEG with sensor-like noise, so it is as large as a real phone photo."""
    photo = folder / "photo12mp.jpg"
    commands = [
        ["vips", "resize", str(SOURCE), str(folder / "big.v"), "2.3334"],
        ["vips", "gaussnoise", str(folder / "noise.v"), "4200", "2800", "--sigma", "25"],
        ["vips", "bandjoin", f"{folder / 'noise.v'} {folder / 'noise.v'} {folder / 'noise.v'}", str(folder / "noise3.v")],
        ["vips", "add", str(folder / "big.v"), str(folder / "noise3.v"), str(folder / "sum.v")],
        ["vips", "cast", str(folder / "sum.v"), str(folder / "cast.v"), "uchar"],
        ["vips", "jpegsave", str(folder / "cast.v"), str(photo), "--Q", "98"],
    ]
    for command in commands:
        subprocess.run(command, check=True)
    return photo


def main():
    work = pathlib.Path(tempfile.mkdtemp(prefix="shelfed-photo-bench-"))
    try:
        photo = make_photo(work)
        data = photo.read_bytes()
        print(f"test photo: {len(data) / 1_048_576:.1f} MB, 4200 x 2800")
        with running_server() as (server, base, _):
            session, token = register(base)
            created = session.post(base + "/books", data={"_csrf": token, "title": "Bench", "shelf": "reading"})
            book = created.url.split("?")[0].rstrip("/").rsplit("/", 1)[1]
            cookies = dict(session.cookies)

            def upload(_=None):
                started = time.perf_counter()
                response = requests.post(f"{base}/books/{book}/photos", cookies=cookies, allow_redirects=False,
                                         data={"_csrf": token, "page_number": "1"},
                                         files={"photo": ("photo.jpg", data, "image/jpeg")})
                assert response.status_code == 303, response.status_code
                return (time.perf_counter() - started) * 1000

            upload()  # loads libvips, as the first photo after a restart does
            rss_before = rss_kib(server.pid)
            timings = sorted(upload() for _ in range(7))
            print(f"one 12 MP upload, stored with display image and thumbnail: median "
                  f"{statistics.median(timings):.0f} ms (min {timings[0]:.0f}, max {timings[-1]:.0f}; "
                  f"includes sending {len(data) / 1_048_576:.1f} MB over loopback)")

            # Turning a stored photo: each request turns it a quarter right from the original (the fourth is
            # back to no turn, made the same way).
            stored = requests.post(f"{base}/books/{book}/photos", cookies=cookies, allow_redirects=False,
                                   data={"_csrf": token}, files={"photo": ("photo.jpg", data, "image/jpeg")})
            photo_path = stored.headers["location"].split("?")[0]
            turns = []
            for _ in range(8):
                started = time.perf_counter()
                answer = requests.post(f"{base}{photo_path}/touch-up", cookies=cookies, allow_redirects=False,
                                       data={"_csrf": token, "action": "turn-right"})
                assert answer.status_code == 303, answer.status_code
                turns.append((time.perf_counter() - started) * 1000)
            turns.sort()
            print(f"turn a stored 12 MP photo (from its original, display image and thumbnail again): median "
                  f"{statistics.median(turns):.0f} ms (min {turns[0]:.0f}, max {turns[-1]:.0f})")
            peak = rss_before
            with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
                futures = [pool.submit(upload) for _ in range(8)]
                while not all(f.done() for f in futures):
                    peak = max(peak, rss_kib(server.pid))
                    time.sleep(0.01)
                results = [f.result() for f in futures]
            print(f"8 concurrent uploads: all stored, slowest {max(results):.0f} ms")
            print(f"RSS before {rss_before / 1024:.1f} MiB, peak during the 8 uploads {peak / 1024:.1f} MiB "
                  f"(VmHWM since start {rss_kib(server.pid, 'VmHWM') / 1024:.1f} MiB)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
