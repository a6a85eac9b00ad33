"""The household's Jellyfin webhook against the release binary (issue 38, DESIGN §13): a call without the secret, with
a wrong or enormous one, for a Jellyfin user nobody here is linked to, not JSON, nested ten thousand deep, or with
hostile fields is refused or ignored with nothing written; the same finished film replayed a thousand times counts
once."""
import json
import re
import sqlite3

import requests

BASE_EVENT = {
    "ServerId": "16588a9f062a40c4966586b1d220bffc", "ServerVersion": "10.10.3", "NotificationType": "UserDataSaved",
    "SaveReason": "TogglePlayed", "Played": True, "PlayCount": 1, "ItemType": "Movie", "ItemId": "f00d",
    "Name": "Heat", "Year": 1995, "UtcTimestamp": "2026-03-14T21:19:42.3644778Z",
    "UserId": "02700c8344d542619b39319296c0d4c7", "NotificationUsername": "Rain",
}


def rows(server, sql, *arguments):
    with sqlite3.connect(server.data_dir / "data" / "shelfed.sqlite") as db:
        return db.execute(sql, arguments).fetchall()


def test_the_jellyfin_webhook_refuses_strangers_and_counts_a_replay_once(server, alice):
    made = alice.post("/household/jellyfin", {"action": "secret"})
    assert made.status_code == 200, made.status_code
    secret = re.search(r"/hooks/jellyfin\?secret=([0-9a-f]+)", made.text).group(1)
    alice.post("/household/jellyfin", {"action": "users", "jellyfin_user_1": "Rain"})
    hook = server.base + "/hooks/jellyfin"
    calls = requests.Session()

    def send(body, secret=secret, **kwargs):
        params = {} if secret is None else {"secret": secret}
        data = body if isinstance(body, (bytes, str)) else json.dumps(body)
        answer = calls.post(hook, params=params, data=data, headers={"Content-Type": "application/json"}, timeout=10,
                            **kwargs)
        assert server.alive()
        return answer

    before = rows(server, "SELECT COUNT(*) FROM user_book")[0][0]
    assert send(BASE_EVENT, secret=None).status_code == 401
    assert send(BASE_EVENT, secret="0" * 48).status_code == 401
    assert send(BASE_EVENT, secret="a" * 10_000).status_code in (401, 414, 431)
    assert calls.post(hook, data=json.dumps(BASE_EVENT), headers={"X-Shelfed-Secret": secret + "0"},
                      timeout=10).status_code == 401
    # Another house's Jellyfin user, by id and by name.
    stranger = dict(BASE_EVENT, UserId="ffffffffffffffffffffffffffffffff", NotificationUsername="Mallory")
    answer = send(stranger)
    assert answer.status_code == 403 and "No member" in answer.json()["error"]
    for body in [b"[1, 2]", b"{", b"\xff\xfe", b"[" * 10_000 + b"]" * 10_000, b"null"]:
        assert send(body).status_code == 400, body[:20]
    assert rows(server, "SELECT COUNT(*) FROM user_book")[0][0] == before

    # Other suites share this server: only the rows this test makes are looked at.
    first_new = rows(server, "SELECT COALESCE(MAX(id), 0) + 1 FROM book")[0][0]
    # Fields as an attacker writes them: bounded, typed, or left out — never a crash, never markup kept as such.
    odd = [
        dict(BASE_EVENT, ItemId="odd-1", Name="x" * 10_000),
        dict(BASE_EVENT, ItemId="odd-2", Year=99_999_999_999_999, Name="<script>alert(1)</script>"),
        dict(BASE_EVENT, ItemId="odd-3", ItemType="Episode", SeriesName="Heat", SeasonNumber=-1, EpisodeNumber=1e300),
        dict(BASE_EVENT, ItemId="odd-4", UtcTimestamp="9999-99-99T99:99:99Z", Played="yes"),
        dict(BASE_EVENT, ItemId="i" * 100),
    ]
    outcomes = [send(body).json().get("outcome") for body in odd]
    assert outcomes == ["ignored", "counted", "ignored", "ignored", "ignored"], outcomes
    kept = rows(server, "SELECT title FROM book WHERE id >= ? AND title LIKE '%script%'", first_new)
    assert kept == [("<script>alert(1)</script>",)]
    page = alice.get("/shelves/read").text
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page

    # The same finished film, a thousand times: counted once, one viewing.
    first = send(BASE_EVENT)
    assert first.status_code == 200 and first.json() == {"outcome": "counted"}
    repeats = {send(BASE_EVENT).json()["outcome"] for _ in range(1_000)}
    assert repeats == {"already-counted"}
    heat = rows(server, """
        SELECT user_book.shelf, user_book.finished_at,
            (SELECT COUNT(*) FROM read_through WHERE user_book_id = user_book.id)
        FROM user_book JOIN book ON book.id = user_book.book_id WHERE book.title = 'Heat' AND book.id >= ?""", first_new)
    assert heat == [("read", "2026-03-14", 0)], heat
