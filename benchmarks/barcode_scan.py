"""ISBN barcode from a 12 MP phone photo (DESIGN §11: ≤ 300 ms), through `POST /api/v1/scans/barcode` on the
release server, with the book's lookup already cached so only the upload and the scan are timed. The same photos
go through Debian's `zbarimg` (zbar-tools) as a subprocess, the alternative to loading libzbar in the server.

    .venv/bin/python -u benchmarks/barcode_scan.py
"""
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import requests

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests" / "e2e"))
import capture_images as images  # noqa: E402
from bench_server import register, rss_kib, running_server  # noqa: E402
from fake_books import FakeBooks  # noqa: E402

ISBN = "9780140446043"
ROUNDS = 15
PHOTOS = {
    # A barcode held at arm's length: about a quarter of the photo's width, as a phone user frames it.
    "flat, 1,000 px wide": dict(barcode_width=1000),
    "on its side": dict(barcode_width=1000, angle=90),
    "slanted 30°, blurred": dict(barcode_width=1100, angle=30, blur=1.2),
    "far: 400 px wide": dict(barcode_width=400),
    "no barcode": None,
}


def main():
    folder = pathlib.Path(tempfile.mkdtemp(prefix="shelfed-barcode-bench-"))
    fake = FakeBooks().start()
    try:
        files = {}
        for name, options in PHOTOS.items():
            path = folder / (name.replace(" ", "_").replace(",", "").replace(":", "") + ".jpg")
            if options is None:
                path.write_bytes(images.text_photo(["A page with words and no barcode"], size=(4000, 3000), quality=92))
            else:
                path.write_bytes(images.book_photo([ISBN], size=(4000, 3000), quality=92, **options))
            files[name] = path
        with running_server(SHELFED_GOOGLE_BOOKS_URL=fake.base_url + "/books/v1",
                            SHELFED_OPEN_LIBRARY_URL=fake.base_url + "/ol") as (server, base, _):
            register(base)
            key = requests.post(base + "/api/v1/sessions", json={"email": "bench", "password": "benchmark password"},
                                timeout=10).json()["api_key"]
            headers = {"Authorization": f"Bearer {key}"}

            def scan(path):
                started = time.perf_counter()
                answer = requests.post(base + "/api/v1/scans/barcode", headers=headers,
                                       files={"photo": ("photo.jpg", path.read_bytes(), "image/jpeg")}, timeout=120)
                elapsed = time.perf_counter() - started
                assert answer.status_code == 200, answer.text
                return elapsed, answer.json()

            scan(files["flat, 1,000 px wide"])  # caches the lookup and loads libvips and zbar
            rss_before = rss_kib(server.pid)
            print(f"12 MP JPEGs (4000 × 3000), {ROUNDS} rounds each; idle RSS {rss_before / 1024:.1f} MiB")
            print("| photo | size | server: upload + scan, median (min–max) | found | zbarimg subprocess, median | zbarimg peak RSS |")
            print("|---|---|---|---|---|---|")
            for name, path in files.items():
                times = []
                for _ in range(ROUNDS):
                    elapsed, body = scan(path)
                    times.append(elapsed * 1000)
                found = ",".join(body["isbns"]) or body["source"]
                zbar = zbarimg(path) if shutil.which("zbarimg") else None
                zbar_text = f"{zbar[0]:.0f} ms" if zbar else "not installed"
                zbar_rss = f"{zbar[1] / 1024:.0f} MiB" if zbar else "—"
                print(f"| {name} | {path.stat().st_size / 1e6:.1f} MB | {statistics.median(times):.0f} ms "
                      f"({min(times):.0f}–{max(times):.0f}) | {found} | {zbar_text} | {zbar_rss} |")
            print(f"server VmHWM (peak RSS since start): {rss_kib(server.pid, 'VmHWM') / 1024:.1f} MiB")
    finally:
        fake.shutdown()
        shutil.rmtree(folder, ignore_errors=True)


def zbarimg(path, rounds=5):
    times, peak = [], 0
    for _ in range(rounds):
        started = time.perf_counter()
        run = subprocess.run(["/usr/bin/time", "-f", "%M", "zbarimg", "-q", "--raw", "-Sdisable", "-Sean13.enable",
                              "-Supca.enable", str(path)], capture_output=True, text=True)
        times.append((time.perf_counter() - started) * 1000)
        peak = max(peak, int(run.stderr.strip().splitlines()[-1]))
    return statistics.median(times), peak


if __name__ == "__main__":
    main()
