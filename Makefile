# Shelfed: `make run` starts the server, `make test` runs every test suite. Both install what they need.
SHELL := /bin/bash
SYSTEM_PACKAGES := libsqlite3-dev libvips-dev pkg-config
TEST_PACKAGES := chromium chromium-driver
BENCH_PACKAGES := wrk time libvips-tools
SWIFT_BUILD_FLAGS ?=

.PHONY: run test system-deps test-deps build release test-swift test-e2e bench clean

run: system-deps release
	SHELFED_DATA_DIR="$${SHELFED_DATA_DIR:-./data}" .build/release/shelfed serve

test: system-deps test-deps test-swift test-e2e

system-deps:
	@bash scripts/install-system-packages.sh $(SYSTEM_PACKAGES)

test-deps:
	@bash scripts/install-system-packages.sh $(TEST_PACKAGES)
	@bash scripts/setup-python.sh

build:
	swift build $(SWIFT_BUILD_FLAGS) --product shelfed

release:
	swift build -c release $(SWIFT_BUILD_FLAGS) --product shelfed

test-swift:
	swift test $(SWIFT_BUILD_FLAGS)

test-e2e: build
	.venv/bin/python -m pytest -q Tests/e2e

bench: system-deps release
	@bash scripts/install-system-packages.sh $(BENCH_PACKAGES)
	@bash scripts/setup-python.sh
	.venv/bin/python -u benchmarks/shelf_page.py
	.venv/bin/python -u benchmarks/search_cache.py
	.venv/bin/python -u benchmarks/photos.py

clean:
	rm -rf .build .venv Tests/e2e/screenshots
