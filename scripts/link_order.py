"""Records which functions the release server runs at start and on everyday pages, for the release link.

Run it with `make link-order` after the code has changed a lot; commit the Sources/Shelfed/link-order.txt it writes.

Why: a file-backed page of code costs resident memory once anything on it runs, and Linux maps 64 KB around every
page fault. Swift code that runs at start-up is spread thinly over the whole 15 MB of machine code, so an idle server
kept most of it resident. `make release` tells lld to place the functions listed in link-order.txt first and next to
each other (each function has a section of its own, so it can).

How: the kernel tells us only one function per 64 KB window (the one that faulted; its neighbours come in with it),
so the script repeats: link with the list so far, start the server under `perf record -e page-faults`, take the
functions at the faulting addresses that lie outside the listed block, add them, and link again. Functions first seen
at start-up come before those first seen while serving pages. Each round finds fewer; benchmarks/README.md
gives the figures measured with the list that 25 rounds (the default) wrote.
"""
import argparse
import bisect
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_server import running_server  # noqa: E402
from everyday_pages import exercise  # noqa: E402

ORDER_FILE = ROOT / "Sources" / "Shelfed" / "link-order.txt"
BINARY = ROOT / ".build" / "release" / "shelfed"


def build():
    """Relinks the release binary with the current list (removing it makes SwiftPM link again)."""
    BINARY.unlink(missing_ok=True)
    subprocess.run(["make", "--no-print-directory", "release"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def faulting_addresses(serve_pages):
    """Runs the server under perf and returns the link-time addresses of the faults inside the binary."""
    with tempfile.TemporaryDirectory(prefix="shelfed-order-") as work:
        recording = pathlib.Path(work) / "faults.data"
        perf = ["perf", "record", "-q", "-c", "1", "-e", "page-faults", "-d", "-o", str(recording)]
        with running_server(binary=BINARY, wrapper=perf) as (recorder, base, _):
            if serve_pages:
                exercise(base)
            time.sleep(0.3)
            # Killed rather than stopped, so that shutdown code does not count as everyday code. Only perf's own
            # child: a household server running on the same machine is left alone.
            subprocess.run(["pkill", "-KILL", "-P", str(recorder.pid)])
            recorder.wait()
        script = subprocess.run(["perf", "script", "-i", str(recording), "--show-mmap-events", "-F", "addr"],
                                capture_output=True, text=True, check=True).stdout
    mapped_at = None
    addresses = []
    for line in script.splitlines():
        if "PERF_RECORD_MMAP" in line:
            if mapped_at is None and "r-xp" in line and line.endswith(str(BINARY.resolve())):
                mapped_at = int(re.search(r"\[0x([0-9a-f]+)\(", line).group(1), 16)
        elif line.strip():
            addresses.append(int(line.strip(), 16))
    if mapped_at is None:
        raise RuntimeError(f"perf saw no code mapped from {BINARY}")
    load_bias = mapped_at - (executable_segment_address() & ~0xFFF)
    return [address - load_bias for address in addresses]


def executable_segment_address():
    headers = subprocess.run(["readelf", "-lW", str(BINARY)], capture_output=True, text=True, check=True).stdout
    return next(int(line.split()[2], 16) for line in headers.splitlines()
                if line.strip().startswith("LOAD") and " R E " in line)


def text_section():
    sections = subprocess.run(["readelf", "-SW", str(BINARY)], capture_output=True, text=True, check=True).stdout
    match = re.search(r"\]\s+\.text\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", sections)
    start = int(match.group(1), 16)
    return start, start + int(match.group(2), 16)


def function_symbols():
    listing = subprocess.run(["nm", "-n", "--defined-only", str(BINARY)], capture_output=True, text=True,
                             check=True).stdout
    symbols = []
    for line in listing.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in "tTWw":
            symbols.append((int(parts[0], 16), parts[2]))
    return symbols


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=25)
    rounds = parser.parse_args().rounds
    order = []
    listed = set()
    for round_number in range(rounds):
        ORDER_FILE.write_text("".join(name + "\n" for name in order))
        build()
        symbols = function_symbols()
        starts = [address for address, _ in symbols]
        text_start, text_end = text_section()
        found = []
        windows = set()
        for serve_pages in (False, True):
            for address in faulting_addresses(serve_pages):
                if not text_start <= address < text_end:
                    continue
                windows.add(address >> 16)
                index = bisect.bisect_right(starts, address) - 1
                if index < 0 or symbols[index][1] in listed:
                    continue
                listed.add(symbols[index][1])
                found.append(symbols[index][1])
        print(f"round {round_number + 1}: code faulted in {len(windows)} windows of 64 KB; "
              f"{len(found)} functions added to the {len(order)} listed", flush=True)
        if not found:
            break
        order += found
    ORDER_FILE.write_text("".join(name + "\n" for name in order))
    build()
    print(f"wrote {len(order)} functions to {ORDER_FILE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
