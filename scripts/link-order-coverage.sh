#!/usr/bin/env bash
# How much of Sources/Shelfed/link-order.txt still names functions in today's release binary (issue 26). The file
# places the functions the server runs at start and on everyday pages together (benchmarks/README.md, "Idle
# memory"); as the code changes, renamed and removed functions drop out of it silently and the idle footprint
# creeps up. `make test-install` prints this; below the floor it fails and says to run `make link-order`.
set -euo pipefail
binary=${1:-.build/release/shelfed}
order=${2:-Sources/Shelfed/link-order.txt}
floor=${LINK_ORDER_FLOOR:-60}
nm=$(command -v nm || command -v llvm-nm || true)
if [ -z "$nm" ]; then
    echo "link-order.txt: neither nm nor llvm-nm is here, so its coverage was not checked." >&2
    exit 0
fi
listed=$(grep -c . "$order")
# Function symbols the binary defines (text, local or global); `nm` reads the symbol table, kept by the build.
present=$(comm -12 <(sort -u "$order") <("$nm" --defined-only "$binary" | awk '$2 ~ /^[tTwW]$/ {print $3}' | sort -u) | wc -l)
percent=$(( present * 100 / listed ))
echo "link-order.txt: $present of its $listed functions ($percent %) are still in the binary."
if [ "$percent" -lt "$floor" ]; then
    echo "That is under $floor %: re-record it with 'make link-order' (needs perf) so the idle memory stays small." >&2
    exit 1
fi
