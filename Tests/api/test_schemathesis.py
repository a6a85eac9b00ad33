"""schemathesis against the served openapi.yaml on the running release binary, with a seeded user, key, book and
photo: every operation, no 5xx and no answer that breaks the schema. Bounded in examples and time."""
import pathlib
import subprocess
import sys

import requests

from conftest import ROOT, register


def seed(base):
    email, password = register(base, "schemathesis")
    key = requests.post(base + "/api/v1/sessions", json={"email": email, "password": password}).json()["api_key"]
    headers = {"Authorization": f"Bearer {key}"}
    book = requests.post(base + "/api/v1/books", json={"title": "Seeded", "page_count": 300}, headers=headers)
    book_id = book.json()["book"]["id"]
    # A film and a show typed by hand, so the titles routes have something of the key owner's to answer about.
    for kind, title in (("movie", "Seeded film"), ("show", "Seeded show")):
        requests.post(base + "/api/v1/titles", json={"kind": kind, "title": title, "year": 2021}, headers=headers)
    jpeg = (ROOT / "Tests" / "Fixtures" / "images" / "Landscape_1.jpg").read_bytes()
    requests.post(f"{base}/api/v1/books/{book_id}/photos", headers=headers,
                  files={"photo": ("p.jpg", jpeg, "image/jpeg")}, data={"comment": "seeded"})
    return key


def test_every_operation_keeps_to_the_schema(server):
    key = seed(server.base)
    command = [
        str(pathlib.Path(sys.executable).parent / "schemathesis"), "run", server.base + "/api/openapi.yaml",
        "--url", server.base, "-H", f"Authorization: Bearer {key}",
        "--checks", "not_a_server_error,status_code_conformance,content_type_conformance,"
                    "response_schema_conformance,response_headers_conformance",
        "--max-examples", "40", "--request-timeout", "10", "--suppress-health-check", "all",
        "--seed", "20261122", "--generation-deterministic", "--max-time", "150", "--no-color",
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:] + "\n--- server log ---\n" + server.log_path.read_text()[-3000:]
    assert server.poll() is None
