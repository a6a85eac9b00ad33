#!/usr/bin/env bash
# `make deb` (issue 26): a .deb of the release build for this machine's architecture (arm64 on a Pi), so one Pi can
# build Shelfed and the others only install it: `sudo apt install ./shelfed_<version>_<arch>.deb`. The files are the
# ones `make install` writes (PREFIX=/usr, the unit under /lib/systemd/system); the maintainer scripts make the
# `shelfed` user and /var/lib/shelfed and start the service. Settings and the Avahi file are conffiles: an upgrade
# never overwrites a household's changes.
set -euo pipefail

arch=$(dpkg --print-architecture)
version="0.$(git log -1 --format=%cd --date=format:%Y%m%d%H%M 2>/dev/null || date +%Y%m%d%H%M)+$(git rev-parse --short HEAD 2>/dev/null || echo local)"
out=${DEB_OUT:-.build/deb}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

make --no-print-directory install DESTDIR="$stage" PREFIX=/usr UNIT_DIR=/lib/systemd/system >/dev/null
# The settings file is written by postinst on first install (from the installed binary), so a purge can remove it
# and an upgrade never touches the household's copy.
rm -f "$stage/etc/shelfed/shelfed.env"
install -d "$stage/usr/share/shelfed/packaging"
"$stage/usr/bin/shelfed" settings > "$stage/usr/share/shelfed/packaging/shelfed.env"

# Linked libraries, found as installed packages; the ones Shelfed opens itself when it starts (libvips, zbar,
# OpenBLAS) are named by hand.
linked=$(for library in $(ldd .build/release/shelfed | awk '$3 ~ /^\// {print $3}'); do
    dpkg -S "*/$(basename "$(realpath "$library")")" 2>/dev/null | head -n1 | cut -d: -f1 || true
done | sort -u | paste -sd, - | sed 's/,/, /g')
depends="${linked:+$linked, }libvips42, libzbar0, libopenblas0 | libopenblas0-pthread | libopenblas0-openmp, adduser"
size=$(du -sk "$stage" | cut -f1)

install -d "$stage/DEBIAN"
cat > "$stage/DEBIAN/control" <<CONTROL
Package: shelfed
Version: $version
Architecture: $arch
Maintainer: Shelfed <shelfed@localhost>
Installed-Size: $size
Depends: $depends
Recommends: tesseract-ocr, tesseract-ocr-eng, avahi-daemon
Section: web
Priority: optional
Homepage: http://localhost:8080/
Description: the household's self-hosted reading tracker
 Shelves (want to read, reading, read), reading progress and a journal, photos of favourite pages with their
 words read by OCR, imports from Goodreads and others, search by meaning with a small model that runs on the
 machine, and a household that shares by choice. Serves http://<hostname>.local:8080 to the home network.
CONTROL
printf '%s\n' /etc/avahi/services/shelfed.service > "$stage/DEBIAN/conffiles"

cat > "$stage/DEBIAN/postinst" <<'SCRIPT'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
    if ! getent passwd shelfed >/dev/null; then
        adduser --system --group --home /var/lib/shelfed --no-create-home --shell /usr/sbin/nologin shelfed
    fi
    install -d -o shelfed -g shelfed -m 0750 /var/lib/shelfed
    if [ ! -e /etc/shelfed/shelfed.env ]; then
        install -d /etc/shelfed
        install -m 0640 -g shelfed /usr/share/shelfed/packaging/shelfed.env /etc/shelfed/shelfed.env
    fi
    if [ -d /run/systemd/system ]; then
        systemctl daemon-reload
        systemctl enable shelfed >/dev/null
        systemctl restart shelfed
        if systemctl is-active --quiet avahi-daemon; then systemctl reload avahi-daemon || true; fi
    fi
    echo "Shelfed runs: open http://$(hostname).local:8080 in the house. Settings: /etc/shelfed/shelfed.env"
fi
exit 0
SCRIPT
cat > "$stage/DEBIAN/prerm" <<'SCRIPT'
#!/bin/sh
set -e
if [ -d /run/systemd/system ] && [ "$1" = remove ]; then
    systemctl disable --now shelfed >/dev/null 2>&1 || true
fi
exit 0
SCRIPT
cat > "$stage/DEBIAN/postrm" <<'SCRIPT'
#!/bin/sh
set -e
if [ -d /run/systemd/system ]; then systemctl daemon-reload || true; fi
# The library in /var/lib/shelfed is the household's: never removed here, not even on purge.
if [ "$1" = purge ]; then rm -f /etc/shelfed/shelfed.env; rmdir /etc/shelfed 2>/dev/null || true; fi
exit 0
SCRIPT
chmod 0755 "$stage/DEBIAN/postinst" "$stage/DEBIAN/prerm" "$stage/DEBIAN/postrm"

mkdir -p "$out"
package="$out/shelfed_${version}_${arch}.deb"
# gzip at its fastest: the model's weights do not compress, and a Pi builds this.
dpkg-deb --root-owner-group -Zgzip -z1 --build "$stage" "$package" >/dev/null
echo "$package"
