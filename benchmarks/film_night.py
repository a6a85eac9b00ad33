"""Film night (issue 38) on a release build: four members who share, each with 500 films and shows on Want to watch
(a hundred of them on everyone's, some as separate rows of the same title, a few owned), then the server's CPU per
request for /film-night with all four on the sofa, and with "ends by", under wrk for 10 s. Budget: 5 ms.

    .venv/bin/python -u benchmarks/film_night.py

Needs the release binary (`make release`) and wrk. Rows are written straight into the running server's database.
"""
import datetime
import sqlite3

from bench_server import register, running_server
from journal import measure

MEMBERS = 4
WANTED = 500
SHARED = 100


def seed(data_dir):
    database = sqlite3.connect(data_dir / "data" / "shelfed.sqlite", timeout=10)
    now = datetime.datetime.now().isoformat(sep=" ")
    for member in range(1, MEMBERS + 1):
        if member > 1:
            database.execute(
                """INSERT INTO user (username, email, display_name, password_hash, created_at, shares_reading)
                   VALUES (?, ?, ?, 'x', ?, 1)""", (f"member{member}", f"m{member}@example.com", f"Member {member}", now))
        database.execute("UPDATE user SET shares_reading = 1 WHERE id = ?", (member,))
        for number in range(WANTED):
            # The first hundred are everyone's (each person's own row of the same title); the rest their own.
            title = f"Shared film {number}" if number < SHARED else f"Film {member}-{number}"
            kind = "show" if number % 5 == 0 else "movie"
            cursor = database.execute(
                """INSERT INTO book (title, authors, categories, source, created_at, updated_at, owner_user_id, kind,
                       published_date, runtime_minutes)
                   VALUES (?, '[]', '[]', 'import', ?, ?, ?, ?, ?, ?)""",
                (title, now, now, member, kind, str(1950 + number % 70), 50 if kind == "show" else 80 + number % 100))
            database.execute(
                """INSERT INTO user_book (user_id, book_id, shelf, favourite, added_at, updated_at, owned)
                   VALUES (?, ?, 'want_to_read', 0, ?, ?, ?)""",
                (member, cursor.lastrowid, now, now, 1 if number % 17 == 0 else None))
    database.commit()
    database.close()


def main():
    with running_server(SHELFED_MODEL_DIR="/nonexistent") as (server, base, data_dir):
        session, _ = register(base)
        seed(data_dir)
        sofa = "&".join(f"with={member}" for member in range(2, MEMBERS + 1))
        page = session.get(f"{base}/film-night?{sofa}").text
        assert f"{SHARED} titles on the Want to watch of you, Member 2, Member 3 and Member 4" in page, page[-3000:]
        measure(server, session, f"{base}/film-night?{sofa}", f"film night, {MEMBERS} people x {WANTED} wanted")
        measure(server, session, f"{base}/film-night?{sofa}&kind=movie&until=23:00", "the same, films that end by 23:00")
        measure(server, session, f"{base}/film-night", "film night, the viewer alone")


if __name__ == "__main__":
    main()
