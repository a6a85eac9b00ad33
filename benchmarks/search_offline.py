"""Search with the network down (issue 22): how long the search page takes when the providers cannot be reached.

Starts the release build twice, its Google Books and Open Library URLs pointing at 127.0.0.1 only:
1. a port nobody listens on (connection refused, as on a Pi whose router is off);
2. a listener that accepts connections and never answers (a network that swallows packets).
For each, times five different searches in a row (a title, then an ISBN, then three more titles): the first meets
the provider, the rest the open circuit breaker. Prints each time to the page's last byte and its status."""
import socket
import threading
import time

import requests

from bench_server import free_port, register, running_server

SEARCHES = ["dune", "9780441172719", "the left hand of darkness", "piranesi", "9780140446043"]


def silent_listener():
    """Accepts every connection on 127.0.0.1 and never writes a byte; returns (base URL, stop)."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held = []
    stopping = threading.Event()

    def accept():
        server.settimeout(0.2)
        for _ in range(10_000):  # Bounded: a few hundred polls last the whole benchmark.
            if stopping.is_set():
                return
            try:
                connection, _ = server.accept()
                held.append(connection)
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()

    def stop():
        stopping.set()
        thread.join(timeout=2)
        for connection in held:
            connection.close()
        server.close()

    return f"http://127.0.0.1:{server.getsockname()[1]}", stop


def measure(label, upstream):
    with running_server(SHELFED_GOOGLE_BOOKS_URL=upstream + "/books/v1", SHELFED_OPEN_LIBRARY_URL=upstream + "/ol",
                        SHELFED_OPEN_LIBRARY_COVERS_URL=upstream + "/covers") as (_, base, _):
        session, _ = register(base)
        print(label)
        for query in SEARCHES:
            started = time.perf_counter()
            response = session.get(base + "/search", params={"q": query}, timeout=60)
            elapsed = time.perf_counter() - started
            unavailable = "Search is unavailable" in response.text
            print(f"  {query!r:32} {elapsed * 1000:7.1f} ms  HTTP {response.status_code}"
                  f"{'  (says search is unavailable)' if unavailable else ''}")


def main():
    measure("connection refused (nothing listens on the port):", f"http://127.0.0.1:{free_port()}")
    base, stop = silent_listener()
    try:
        measure("a listener that accepts and never answers:", base)
    finally:
        stop()


if __name__ == "__main__":
    main()
