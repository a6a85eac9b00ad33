#!/usr/bin/env bash
# `make upgrade` (issue 26): bring the source up to date, build it, take a full backup with the version still
# installed, then install the new one and restart the service. Shelfed itself copies the database aside again before
# migrating it; README "Upgrading and going back" says how to return.
set -euo pipefail
git pull --ff-only
make release
data=${SHELFED_INSTALL_DATA:-/var/lib/shelfed}
if [ -x /usr/local/bin/shelfed ] && [ -e "$data/shelfed.sqlite" ]; then
    stamp=$(date -u +%Y%m%d-%H%M%S)
    sudo install -d -o shelfed -g shelfed "$data/backups"
    sudo -u shelfed env SHELFED_DATA_DIR="$data" /usr/local/bin/shelfed backup "$data/backups/before-upgrade-$stamp.zip"
fi
sudo make install
echo "Upgraded. If something is wrong, README.md 'Upgrading and going back' says how to return."
