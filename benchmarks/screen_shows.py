"""Shows episode by episode (issue 37): a show's page with 1,000 episodes (one season of 1,000, then ten of 100,
half of them watched), marking a whole season and taking it back, the home page and the profile with a hundred shows
watched to the end (ten of them with a new episode: the home's New episodes, the profile's year of watching), and the film and show search with the providers
down (connection refused, then a listener that never answers), with and without a TMDB token; and the server's
resident memory at rest after all of it.

    .venv/bin/python -u benchmarks/screen_shows.py

Needs the release binary (`make release`) and wrk. Shows and episodes are written straight into the running
server's database (WAL mode), as screen_titles.py does; the searches go to 127.0.0.1 only.
"""
import datetime
import sqlite3
import time

from bench_server import free_port, register, rss_kib, running_server
from journal import cpu_seconds, measure
from search_offline import silent_listener

MARKS = 40


def seed_show(data_dir, title, seasons, per_season, watched_share=0.5, user=1):
    """A show with `seasons` × `per_season` aired episodes, the first `watched_share` of them watched in viewing 1."""
    database = sqlite3.connect(data_dir / "data" / "shelfed.sqlite", timeout=10)
    now = datetime.datetime.now().isoformat(sep=" ")
    show = database.execute(
        """INSERT INTO book (title, authors, categories, source, created_at, updated_at, owner_user_id, kind,
               published_date, runtime_minutes)
           VALUES (?, '["A Creator"]', '[]', 'manual', ?, ?, ?, 'show', '2001', 44)""",
        (title, now, now, user)).lastrowid
    database.execute(
        """INSERT INTO user_book (user_id, book_id, shelf, favourite, added_at, updated_at, started_at)
           VALUES (?, ?, 'reading', 0, ?, ?, '2026-01-01')""", (user, show, now, now))
    viewing = database.execute(
        "INSERT INTO show_viewing (user_id, book_id, number, started_on) VALUES (?, ?, 1, '2026-01-01')",
        (user, show)).lastrowid
    total = seasons * per_season
    for index in range(total):
        season, number = 1 + index // per_season, 1 + index % per_season
        episode = database.execute(
            """INSERT INTO episode (book_id, season, number, title, air_date, runtime_minutes)
               VALUES (?, ?, ?, ?, '2005-01-01', 44)""", (show, season, number, f"Episode {number}")).lastrowid
        if index < total * watched_share:
            database.execute(
                "INSERT INTO episode_watch (viewing_id, episode_id, watched_on) VALUES (?, ?, '2026-01-02')",
                (viewing, episode))
    database.commit()
    database.close()
    return show


def seed_watched_shows(data_dir, count, with_new, user=1):
    """`count` shows of 100 episodes on Watched, each watched to the end in 2026; `with_new` of them have aired one
    more episode since: the home page's New episodes, the profile's year of watching."""
    database = sqlite3.connect(data_dir / "data" / "shelfed.sqlite", timeout=10)
    now = datetime.datetime.now().isoformat(sep=" ")
    year = datetime.date.today().year
    for index in range(count):
        show = database.execute(
            """INSERT INTO book (title, authors, categories, source, created_at, updated_at, owner_user_id, kind,
                   published_date, runtime_minutes)
               VALUES (?, '["A Creator"]', '[]', 'manual', ?, ?, ?, 'show', '2001', 44)""",
            (f"Watched Show {index}", now, now, user)).lastrowid
        database.execute(
            """INSERT INTO user_book (user_id, book_id, shelf, favourite, added_at, updated_at, started_at, finished_at)
               VALUES (?, ?, 'read', 0, ?, ?, ?, ?)""", (user, show, now, now, f"{year}-01-01", f"{year}-01-10"))
        viewing = database.execute(
            """INSERT INTO show_viewing (user_id, book_id, number, started_on, finished_on)
               VALUES (?, ?, 1, ?, ?)""", (user, show, f"{year}-01-01", f"{year}-01-10")).lastrowid
        for number in range(1, 101):
            episode = database.execute(
                """INSERT INTO episode (book_id, season, number, title, air_date, runtime_minutes)
                   VALUES (?, 1, ?, ?, '2005-01-01', 44)""", (show, number, f"Episode {number}")).lastrowid
            database.execute(
                "INSERT INTO episode_watch (viewing_id, episode_id, watched_on) VALUES (?, ?, ?)",
                (viewing, episode, f"{year}-01-{1 + number % 9:02d}"))
        if index < with_new:
            database.execute(
                """INSERT INTO episode (book_id, season, number, title, air_date, runtime_minutes)
                   VALUES (?, 2, 1, 'New', ?, 44)""", (show, f"{year}-01-20"))
    database.commit()
    database.close()


def mark_seasons(server, session, token, base, show, season, label):
    """Marks `season` watched and unwatched again, MARKS times each: wall time per request and the server's CPU."""
    times = []
    before = cpu_seconds(server.pid)
    for index in range(MARKS * 2):
        started = time.perf_counter()
        response = session.post(f"{base}/books/{show}/episodes", allow_redirects=False,
                                data={"_csrf": token, "season": season, "scope": "season",
                                      "watched": "1" if index % 2 == 0 else "0"})
        times.append(time.perf_counter() - started)
        assert response.status_code == 303, response.text[:500]
    used = cpu_seconds(server.pid) - before
    times.sort()
    print(f"{label}: {times[len(times) // 2] * 1000:.1f} ms median, {times[-1] * 1000:.1f} ms slowest, "
          f"server CPU {used / len(times) * 1000:.2f} ms a request ({len(times)} requests)")


def offline_searches(label, upstream, token=None):
    settings = dict(SHELFED_TMDB_URL=upstream + "/tmdb", SHELFED_TMDB_IMAGES_URL=upstream + "/img",
                    SHELFED_TVMAZE_URL=upstream + "/tvmaze", SHELFED_WIKIDATA_URL=upstream + "/wikidata",
                    SHELFED_GOOGLE_BOOKS_URL=upstream + "/books/v1", SHELFED_OPEN_LIBRARY_URL=upstream + "/ol")
    if token:
        settings["SHELFED_TMDB_TOKEN"] = token
    with running_server(**settings) as (_, base, _):
        session, _ = register(base)
        print(label)
        for path in ["/titles/search?q=dune", "/titles/search?q=severance&kind=show", "/find?q=heat",
                     "/titles/search?q=alien&kind=movie"]:
            started = time.perf_counter()
            response = session.get(base + path, timeout=60)
            print(f"  {path:40} {(time.perf_counter() - started) * 1000:7.1f} ms  HTTP {response.status_code}")


def main():
    with running_server(SHELFED_MODEL_DIR="/nonexistent") as (server, base, data_dir):
        session, token = register(base)
        long_season = seed_show(data_dir, "One Long Season", 1, 1_000)
        ten_seasons = seed_show(data_dir, "Ten Seasons", 10, 100)
        measure(server, session, f"{base}/books/{long_season}", "show page, one season of 1,000 episodes (500 watched)")
        measure(server, session, f"{base}/books/{long_season}?season=1&from=900",
                "the same page, its last hundred episodes")
        measure(server, session, f"{base}/books/{ten_seasons}", "show page, 10 seasons of 100 (500 watched)")
        mark_seasons(server, session, token, base, ten_seasons, 8, "marking a season of 100 and taking it back")
        mark_seasons(server, session, token, base, long_season, 1, "marking a season of 1,000 and taking it back")
        measure(server, session, f"{base}/", "home page, two shows on Watching")
        measure(server, session, f"{base}/profile", "profile, before any show was watched to the end")
        seed_watched_shows(data_dir, 100, 10)
        measure(server, session, f"{base}/", "home page, 100 shows watched to the end, 10 with a new episode")
        measure(server, session, f"{base}/profile", "profile, 10,000 episodes watched this year")
        time.sleep(3)
        print(f"resident memory at rest: {rss_kib(server.pid) / 1024:.1f} MB")
    offline_searches("connection refused, no token:", f"http://127.0.0.1:{free_port()}")
    listener, stop = silent_listener()
    try:
        offline_searches("a listener that never answers, no token:", listener)
        offline_searches("a listener that never answers, with a TMDB token:", listener, token="eyJ.benchmark-token.x")
    finally:
        stop()


if __name__ == "__main__":
    main()
