#!/usr/bin/env bash
# Creates .venv with what the browser, hostile and API tests and the benchmarks need, from PyPI.
set -euo pipefail
venv=.venv
if [ ! -x "$venv/bin/python" ]; then
  if ! python3 -m venv "$venv" 2>/dev/null; then
    rm -rf "$venv"
    bash scripts/install-system-packages.sh python3-venv
    python3 -m venv "$venv"
  fi
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r Tests/e2e/requirements.txt
