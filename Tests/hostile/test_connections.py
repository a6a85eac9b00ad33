"""Connections that hold a place without using it (DESIGN §13): half-sent requests cannot make the server
unreachable or use up its 1,024 file descriptors, and a stalled upload is cut off and leaves no temporary file."""
import resource
import socket
import time

import requests

from conftest import REQUEST_TIMEOUT


def test_half_sent_requests_do_not_take_the_server_down(server):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4096), hard))
    port = int(server.base.rsplit(":", 1)[1])
    held = []
    most_descriptors = 0
    try:
        for number in range(1050):
            sock = socket.socket()
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", port))
            held.append(sock)
            if number % 50 == 0:
                time.sleep(0.05)
                most_descriptors = max(most_descriptors, server.open_descriptors())
        time.sleep(0.5)
        for sock in held:
            try:
                sock.send(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            except OSError:
                pass
        most_descriptors = max(most_descriptors, server.open_descriptors())
        started = time.monotonic()
        answer = requests.get(server.base + "/health", timeout=REQUEST_TIMEOUT * 10)
        waited = time.monotonic() - started
        assert answer.status_code == 200
        assert waited < REQUEST_TIMEOUT * 6, f"/health took {waited:.1f} s"
        assert most_descriptors < 1024 - 32, f"the server held {most_descriptors} descriptors"
        assert server.alive()
    finally:
        for sock in held:
            sock.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_stalled_upload_is_cut_off_and_its_file_removed(server, alice):
    book = alice.add_book("Stalled upload")
    alice.get("/")
    boundary = "----stalled"
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"_csrf\"\r\n\r\n{alice.token}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\n"
            "Content-Type: image/jpeg\r\n\r\n").encode() + b"\xff\xd8\xff" + b"\x00" * 200_000
    cookie = "; ".join(f"{name}={value}" for name, value in alice.session.cookies.items())
    request = (f"POST /books/{book}/photos HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\n"
               f"Content-Type: multipart/form-data; boundary={boundary}\r\nContent-Length: 5000000\r\n\r\n").encode()
    incoming = server.data_dir / "data" / "media" / ".incoming"
    sock = socket.create_connection(("127.0.0.1", int(server.base.rsplit(":", 1)[1])))
    try:
        sock.sendall(request + head)
        time.sleep(0.5)
        assert any(incoming.iterdir()), "the upload should have started a temporary file"
        sock.settimeout(REQUEST_TIMEOUT * 5)
        started = time.monotonic()
        closed = False
        while time.monotonic() - started < REQUEST_TIMEOUT * 5:
            try:
                if sock.recv(65536) == b"":
                    closed = True
                    break
            except (ConnectionResetError, socket.timeout):
                closed = True
                break
        assert closed, "the server kept a stalled upload open"
        time.sleep(0.5)
        assert not any(incoming.iterdir()), f"left behind: {list(incoming.iterdir())}"
        assert server.alive()
    finally:
        sock.close()
