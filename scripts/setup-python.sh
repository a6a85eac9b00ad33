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
# axe-core 4.12 (WCAG 2.2 rules such as target-size) for the browser suite's layout checks. Only the script it
# carries is used, injected through Selenium, so its Playwright dependency is not installed.
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps axe-playwright-python==0.1.8
