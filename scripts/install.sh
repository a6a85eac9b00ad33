#!/usr/bin/env bash
# `make install` and `make uninstall` (issue 26): the release binary under $PREFIX/bin, its templates, static files,
# API description and model under $PREFIX/share/shelfed, settings in /etc/shelfed/shelfed.env, a hardened systemd
# unit and an Avahi service file. With DESTDIR (packaging, tests) only files are written; without it (a real
# install, as root) the `shelfed` user and /var/lib/shelfed are made and the service is enabled and started.
set -euo pipefail

action=${1:-install}
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
DATA=${SHELFED_INSTALL_DATA:-/var/lib/shelfed}
PORT=${SHELFED_INSTALL_PORT:-8080}
UNIT_DIR=${UNIT_DIR:-/etc/systemd/system}
BIN="$PREFIX/bin"
SHARE="$PREFIX/share/shelfed"
binary=${SHELFED_BINARY:-.build/release/shelfed}
root="$DESTDIR"

fill() { # template → file, with the install's paths in place of @NAME@
    sed -e "s|@BIN@|$BIN|g" -e "s|@SHARE@|$SHARE|g" -e "s|@DATA@|$DATA|g" -e "s|@PORT@|$PORT|g" "$1" > "$2"
    chmod 0644 "$2"
}

case "$action" in
install)
    if [ ! -x "$binary" ]; then
        echo "There is no release build at $binary yet: run 'make release' first." >&2
        exit 1
    fi
    if [ -z "$DESTDIR" ] && [ "$(id -u)" -ne 0 ]; then
        echo "Installing as a service needs root: run 'sudo make install' (or give DESTDIR= to stage the files)." >&2
        exit 1
    fi
    install -d "$root$BIN" "$root$SHARE/Resources" "$root/etc/shelfed" "$root$UNIT_DIR" "$root/etc/avahi/services"
    install -m 0755 "$binary" "$root$BIN/shelfed"
    # The debugging information is two fifths of the file (186 → 114 MB) and never loaded; the symbols stay, so a
    # crash's backtrace still names its functions.
    if command -v strip >/dev/null 2>&1; then strip --strip-debug "$root$BIN/shelfed"; fi
    # Replaced whole, so a template or script removed upstream does not linger.
    for folder in templates static locales; do
        rm -rf "${root:?}$SHARE/$folder"
        cp -R "$folder" "$root$SHARE/$folder"
    done
    install -m 0644 Resources/openapi.yaml "$root$SHARE/Resources/openapi.yaml"
    install -m 0644 README.md "$root$SHARE/README.md"
    if [ -d models/all-MiniLM-L6-v2 ]; then
        rm -rf "${root:?}$SHARE/models"
        install -d "$root$SHARE/models"
        cp -R models/all-MiniLM-L6-v2 "$root$SHARE/models/"
    else
        echo "No model in models/ (make model fetches it): search will use keywords only." >&2
    fi
    fill packaging/shelfed.service.in "$root$UNIT_DIR/shelfed.service"
    fill packaging/shelfed.avahi.service.in "$root/etc/avahi/services/shelfed.service"
    # Settings are the household's: never overwritten by a reinstall or an upgrade.
    if [ ! -e "$root/etc/shelfed/shelfed.env" ]; then
        "$binary" settings > "$root/etc/shelfed/shelfed.env"
        chmod 0640 "$root/etc/shelfed/shelfed.env"
    fi
    if [ -z "$DESTDIR" ]; then
        id -u shelfed >/dev/null 2>&1 ||
            useradd --system --home-dir "$DATA" --no-create-home --shell /usr/sbin/nologin shelfed
        install -d -o shelfed -g shelfed -m 0750 "$DATA"
        chgrp shelfed /etc/shelfed/shelfed.env
        systemctl daemon-reload
        systemctl enable shelfed
        systemctl restart shelfed
        if systemctl is-active --quiet avahi-daemon 2>/dev/null; then systemctl reload avahi-daemon || true; fi
        echo "Shelfed is running. In the house, open http://$(hostname).local:$PORT (or http://<this machine's address>:$PORT)."
        echo "Settings: /etc/shelfed/shelfed.env · data: $DATA · log: journalctl -u shelfed"
    fi
    ;;
uninstall)
    if [ -z "$DESTDIR" ]; then
        systemctl disable --now shelfed 2>/dev/null || true
    fi
    rm -f "$root$BIN/shelfed" "$root$UNIT_DIR/shelfed.service" "$root/etc/avahi/services/shelfed.service"
    rm -rf "${root:?}$SHARE"
    if [ -z "$DESTDIR" ]; then
        systemctl daemon-reload || true
        echo "Shelfed is removed. Your library is still in $DATA and your settings in /etc/shelfed;"
        echo "delete them yourself if you want them gone (and the user: sudo userdel shelfed)."
    fi
    ;;
*)
    echo "usage: install.sh install|uninstall" >&2
    exit 2
    ;;
esac
