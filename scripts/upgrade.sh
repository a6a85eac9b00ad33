#!/usr/bin/env bash
# `make upgrade` (issue 26): bring the source up to date, build it, take a full backup with the version still
# installed, then install the new one (which restarts the service). Shelfed itself copies the database aside again
# before migrating it; README "Upgrading and going back" says how to return.
#
# PREFIX and DESTDIR are make install's. SHELFED_UPGRADE_PULL=no upgrades to the tree as it is (a change of your own,
# or the tests, which have no upstream to pull from).
set -euo pipefail
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
data=${SHELFED_INSTALL_DATA:-/var/lib/shelfed}
installed="$DESTDIR$PREFIX/bin/shelfed"

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
# The backup is written as the service's user, so the service can read and prune it later.
as_service() {
    if ! id -u shelfed >/dev/null 2>&1; then "$@"
    elif [ "$(id -u)" -eq 0 ]; then runuser -u shelfed -- "$@"
    else sudo -u shelfed "$@"; fi
}

if [ "${SHELFED_UPGRADE_PULL:-yes}" != no ]; then git pull --ff-only; fi
make --no-print-directory release
if [ -x "$installed" ] && [ -e "$data/shelfed.sqlite" ]; then
    backup="$data/backups/before-upgrade-$(date -u +%Y%m%d-%H%M%S).zip"
    if id -u shelfed >/dev/null 2>&1; then
        as_root install -d -o shelfed -g shelfed "$data/backups"
    else
        install -d "$data/backups"
    fi
    as_service env SHELFED_DATA_DIR="$data" "$installed" backup "$backup"
    echo "Backed up with the version installed: $backup"
fi
as_root make --no-print-directory install PREFIX="$PREFIX" DESTDIR="$DESTDIR"
echo "Upgraded. If something is wrong, README.md 'Upgrading and going back' says how to return."
