"""Peak RSS while four hostile images are uploaded at once (DESIGN §11: ≤ 200 MB): progressive JPEGs, whose
decoding holds every coefficient in memory: four of 100 megapixels (refused from their header) and four of
32 megapixels (accepted; each decoding waits until the memory budget has room); then four Adam7-interlaced
10,000 × 10,000 PNGs, whose decoding holds the whole picture, sent at once to the photo page, the API's photo upload
and both scans. Needs `vips` (Debian libvips-tools) and .build/release/shelfed."""
import concurrent.futures
import pathlib
import re
import shutil
import subprocess
import tempfile

import requests

from bench_server import register, rss_kib, running_server


def progressive(folder, name, width, height):
    path = folder / f"{name}.jpg"
    subprocess.run(["vips", "black", str(folder / "black.v"), str(width), str(height), "--bands", "3"], check=True)
    subprocess.run(["vips", "jpegsave", str(folder / "black.v"), str(path), "--interlace", "--Q", "40"], check=True)
    return path


def interlaced_png(folder, name, side):
    path = folder / f"{name}.png"
    subprocess.run(["vips", "black", str(folder / "black.v"), str(side), str(side), "--bands", "3"], check=True)
    subprocess.run(["vips", "pngsave", str(folder / "black.v"), str(path), "--interlace", "--compression", "9"],
                   check=True)
    return path


def main():
    work = pathlib.Path(tempfile.mkdtemp(prefix="shelfed-hostile-images-"))
    try:
        huge = progressive(work, "p100", 10000, 10000)
        large = progressive(work, "p32", 6928, 4619)
        with running_server() as (server, base, _):
            session, token = register(base)
            book = session.post(base + "/books", data={"_csrf": token, "title": "Hostile images"})
            book_path = re.search(r"/books/\d+", book.url).group(0)
            print(f"idle RSS before: {rss_kib(server.pid) / 1024:.1f} MiB")
            for label, photo in (("4 × 100 MP progressive", huge), ("4 × 32 MP progressive", large)):
                def upload(_):
                    with open(photo, "rb") as file:
                        return session.post(base + book_path + "/photos", data={"_csrf": token},
                                            files={"photo": ("p.jpg", file, "image/jpeg")}, allow_redirects=False)
                with concurrent.futures.ThreadPoolExecutor(4) as pool:
                    statuses = sorted(answer.status_code for answer in pool.map(upload, range(4)))
                print(f"{label} ({photo.stat().st_size // 1024} KB each): answers {statuses}, "
                      f"peak RSS so far {rss_kib(server.pid, 'VmHWM') / 1024:.1f} MiB")
        png = interlaced_png(work, "i100", 10000)
        with running_server(SHELFED_GEMINI_API_KEY="bench", SHELFED_GEMINI_URL="http://127.0.0.1:9") as (server, base,
                                                                                                       _):
            session, token = register(base)
            book = session.post(base + "/books", data={"_csrf": token, "title": "Interlaced"})
            book_id = re.search(r"/books/(\d+)", book.url).group(1)
            key = requests.post(base + "/api/v1/sessions", json={"email": "bench@example.com",
                                                                 "password": "benchmark password"}).json()
            auth = {"Authorization": "Bearer " + key["api_key"]}
            print(f"idle RSS before: {rss_kib(server.pid) / 1024:.1f} MiB")
            routes = [(f"/books/{book_id}/photos", {"_csrf": token}, {}), (f"/api/v1/books/{book_id}/photos", {}, auth),
                      ("/api/v1/scans/barcode", {}, auth), ("/api/v1/scans/shelf", {}, auth)]

            def send(route):
                path, fields, headers = route
                client = requests if headers else session  # the API takes no cookies
                with open(png, "rb") as file:
                    return client.post(base + path, data=fields, headers=headers, allow_redirects=False,
                                       files={"photo": ("i.png", file, "image/png")}).status_code
            with concurrent.futures.ThreadPoolExecutor(4) as pool:
                statuses = list(pool.map(send, routes))
            print(f"4 × 100 MP interlaced PNG ({png.stat().st_size // 1024} KB each) to photo, API photo, barcode and "
                  f"shelf scan: answers {statuses}, peak RSS {rss_kib(server.pid, 'VmHWM') / 1024:.1f} MiB")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
