"""`shelfed backup` run against the release binary's data folder while that server is busy importing, then
`shelfed restore` into an empty folder, and a server started on the restored copy."""
import os
import pathlib
import sqlite3
import subprocess
import tempfile

import requests

from conftest import ROOT, TOKEN, Reader, Server
from test_imports import goodreads_rows, job_row, upload_and_confirm, wait_for

BINARY = pathlib.Path(os.environ.get("SHELFED_BINARY", ROOT / ".build" / "release" / "shelfed"))


def shelfed(data_folder, *arguments):
    env = dict(os.environ, SHELFED_DATA_DIR=str(data_folder), SHELFED_RESOURCES_DIR=str(ROOT))
    return subprocess.run([str(BINARY), *arguments], env=env, capture_output=True, text=True, timeout=120)


def counts(database_path):
    with sqlite3.connect(str(database_path)) as database:
        return {table: database.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                for table in ("user", "book", "user_book", "import_row")}


def test_backup_while_importing_then_restore_and_serve(fake_books):
    server = Server(fake_books)
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="shelfed-backup-"))
    restored_server = None
    try:
        reader = Reader(server.base, "keeper")
        data, rows = goodreads_rows(14)
        job_id = upload_and_confirm(reader, data).rsplit("/", 1)[1]
        wait_for(lambda: (row := job_row(server.data_dir, job_id)) and row[1] > 0)

        zip_path = scratch / "backup.zip"
        made = shelfed(server.data_dir / "data", "backup", str(zip_path))
        assert made.returncode == 0, made.stderr
        assert "Wrote" in made.stdout and zip_path.exists()
        during = job_row(server.data_dir, job_id)
        print(made.stdout.strip(), f"(import at {during[1]} of {during[2]} rows when it finished)")

        restored = scratch / "server" / "data"
        answer = shelfed(restored, "restore", str(zip_path))
        assert answer.returncode == 0, answer.stderr
        assert "verified" in answer.stdout
        saved = counts(restored / "shelfed.sqlite")
        # A consistent moment of the import: every imported row's book is there, and each book is on the shelf once.
        assert saved["user"] == 1 and 0 < saved["user_book"] <= rows
        assert saved["book"] == saved["user_book"]

        # Restoring over a library is refused with a message and changes nothing.
        again = shelfed(restored, "restore", str(zip_path))
        assert again.returncode != 0
        assert "empty data folder" in again.stderr
        assert counts(restored / "shelfed.sqlite") == saved

        # The restored copy serves: the same person signs in and finds the books, and the unfinished import resumes.
        restored_server = Server(fake_books, data_dir=scratch / "server")
        session = requests.Session()
        token = TOKEN.search(session.get(restored_server.base + "/login").text).group(1)
        signed_in = session.post(restored_server.base + "/login", data={
            "login": "keeper", "password": "correct horse battery", "_csrf": token})
        assert signed_in.status_code == 200 and "/login" not in signed_in.url, signed_in.text[:300]
        assert "Want to read" in session.get(restored_server.base + "/shelves/want-to-read").text
        finished = wait_for(lambda: (row := job_row(scratch / "server", job_id)) and row[0] == "completed" and row)
        assert finished[1:] == (rows, rows, rows)
        assert counts(scratch / "server" / "data" / "shelfed.sqlite")["user_book"] == rows
    finally:
        server.stop()
        if restored_server:
            restored_server.stop(keep_data=True)
        subprocess.run(["rm", "-rf", str(scratch)])
