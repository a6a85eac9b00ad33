"""Issue 39's budgets: a page rendered in any language within 10 % of English's CPU, and the idle memory with all six
languages' templates and catalogues loaded. Seeds 232 books for one person on a release build, then measures each
page with wrk in each language (the browser's Accept-Language), server CPU from /proc. Prints the figures; copy them
into benchmarks/README.md."""
import re
import statistics
import subprocess
import time

from bench_server import register, rss_kib, running_server
from shelf_page import cpu_seconds

BOOKS = 232
LANGUAGES = ["en", "es", "de", "fr", "it", "pt"]
PAGES = ["/", "/shelves/want-to-read", "/profile/edit"]
ROUNDS = 3


def measure(base, cookie, path, language, seconds=5):
    pid_cpu = cpu_seconds(measure.pid)
    wrk = subprocess.run(
        ["wrk", "-t1", "-c4", f"-d{seconds}s", "-H", f"Cookie: {cookie}", "-H", f"Accept-Language: {language}",
         base + path], capture_output=True, text=True, check=True)
    used = cpu_seconds(measure.pid) - pid_cpu
    done = int(re.search(r"(\d+) requests in", wrk.stdout).group(1))
    return used / done * 1000


def main():
    with running_server() as (server, base, _):
        measure.pid = server.pid
        time.sleep(4)
        print(f"idle RSS 4 s after start, six languages loaded: {rss_kib(server.pid) / 1024:.1f} MiB")
        session, token = register(base)
        for number in range(BOOKS):
            session.post(base + "/books", data={"_csrf": token, "title": f"Libro {number:04d}",
                                                "authors": f"Autora {number % 37}", "page_count": "300",
                                                "shelf": "want_to_read"}, allow_redirects=False)
        book = re.search(r'href="(/books/\d+)"', session.get(base + "/shelves/want-to-read").text).group(1)
        cookie = "; ".join(f"{k}={v}" for k, v in session.cookies.items())
        for path in PAGES + [book]:
            check = session.get(base + path, headers={"Accept-Language": "de"})
            assert check.status_code == 200 and '<html lang="de">' in check.text, path
            measure(base, cookie, path, "en", seconds=2)  # warm
            # Rounds in a rotating order, the median of each language's: one run of wrk differs from the next by
            # more than a language could cost.
            runs = {language: [] for language in LANGUAGES}
            for round_number in range(ROUNDS):
                order = LANGUAGES[round_number:] + LANGUAGES[:round_number]
                for language in order:
                    runs[language].append(measure(base, cookie, path, language, seconds=3))
            figures = {language: statistics.median(values) for language, values in runs.items()}
            english = figures["en"]
            print(f"{path:24} " + "  ".join(
                f"{language} {ms:.3f} ms ({(ms / english - 1) * 100:+.0f} %)" for language, ms in figures.items()))
        time.sleep(40)
        print(f"idle RSS 40 s after the load: {rss_kib(server.pid) / 1024:.1f} MiB "
              f"(anonymous {rss_kib(server.pid, 'RssAnon') / 1024:.1f})")


if __name__ == "__main__":
    main()
