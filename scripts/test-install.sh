#!/usr/bin/env bash
# `make test-install` (issue 26): `make install DESTDIR=<scratch>` puts every file where it belongs, the unit passes
# `systemd-analyze verify` (where systemd is present), the Avahi file is well-formed XML announcing HTTP on the port,
# the installed binary starts from the installed layout and serves, and `make uninstall` takes the files away again
# while keeping the household's settings. Never starts Avahi or systemd, never sends multicast.
set -euo pipefail

dest=$(mktemp -d)
data=$(mktemp -d)
server=""
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$dest" "$data"
}
trap cleanup EXIT
fail() { echo "test-install: $*" >&2; exit 1; }
fetch() { # URL → FILE; fails on a refused connection or an error status (python3, as curl may not be installed)
    python3 -c 'import sys, urllib.request; open(sys.argv[2], "wb").write(urllib.request.urlopen(sys.argv[1], timeout=5).read())' "$1" "$2" 2>/dev/null
}
serve() { # BINARY RESOURCES WHAT: starts BINARY on $port with $data and fails unless it serves its sign-in page
    SHELFED_DATA_DIR="$data" SHELFED_RESOURCES_DIR="$2" SHELFED_PORT="$port" SHELFED_BACKUP_EVERY=off \
        "$1" serve >"$data/server.log" 2>&1 &
    server=$!
    for _ in $(seq 1 60); do
        if fetch "http://127.0.0.1:$port/login" "$data/login.html"; then break; fi
        sleep 0.5
    done
    grep -q 'Sign in' "$data/login.html" 2>/dev/null || { cat "$data/server.log" >&2; fail "the $3 server did not serve /login"; }
}

bash scripts/link-order-coverage.sh
make --no-print-directory install DESTDIR="$dest" PREFIX=/usr/local >/dev/null
share="$dest/usr/local/share/shelfed"
for file in usr/local/bin/shelfed usr/local/share/shelfed/templates/layout.mustache usr/local/share/shelfed/locales/es.po \
    usr/local/share/shelfed/static/css/app.css usr/local/share/shelfed/Resources/openapi.yaml \
    etc/shelfed/shelfed.env etc/systemd/system/shelfed.service etc/avahi/services/shelfed.service; do
    [ -e "$dest/$file" ] || fail "$file was not installed"
done
[ -x "$dest/usr/local/bin/shelfed" ] || fail "the installed binary is not executable"

# Every setting is in the settings file, commented out.
for name in $("$dest/usr/local/bin/shelfed" --help | grep -o 'SHELFED_[A-Z_]*' | sort -u); do
    grep -q "^#$name=$" "$dest/etc/shelfed/shelfed.env" || fail "$name is missing from shelfed.env"
done

unit="$dest/etc/systemd/system/shelfed.service"
for line in "ExecStart=/usr/local/bin/shelfed serve" "User=shelfed" "Restart=on-failure" "NoNewPrivileges=yes" \
    "ProtectSystem=strict" "ProtectHome=yes" "PrivateTmp=yes" "ReadWritePaths=/var/lib/shelfed" \
    "MemoryHigh=600M" "LimitNOFILE=1024" "Environment=SHELFED_RESOURCES_DIR=/usr/local/share/shelfed" \
    "WantedBy=multi-user.target"; do
    grep -qxF "$line" "$unit" || fail "the unit lacks '$line'"
done
if command -v systemd-analyze >/dev/null 2>&1; then
    # Verified as installed, with its program where the scratch root put it.
    checked="$dest/check/shelfed.service"
    mkdir -p "$dest/check"
    sed "s|ExecStart=/usr/local/bin/|ExecStart=$dest/usr/local/bin/|" "$unit" > "$checked"
    systemd-analyze verify "$checked" || fail "systemd-analyze does not accept the unit"
else
    echo "test-install: systemd-analyze is not here; the unit's lines were checked, not the unit itself." >&2
fi
python3 - "$dest/etc/avahi/services/shelfed.service" <<'PY' || fail "the Avahi service file is wrong"
import sys
import xml.etree.ElementTree as tree
service = tree.parse(sys.argv[1]).getroot().find("service")
assert service.findtext("type") == "_http._tcp" and service.findtext("port") == "8080"
PY

# The installed binary, from the installed layout, serves its pages.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
serve "$dest/usr/local/bin/shelfed" "$share" installed
fetch "http://127.0.0.1:$port/static/css/app.css" "$data/app.css" || fail "static files are not served from the install"
kill "$server"
wait "$server" 2>/dev/null || true
server=""

# make upgrade over that install (nothing to pull here): a full backup with the installed version, then the new files.
echo "# the household's own line" >> "$dest/etc/shelfed/shelfed.env"
touch -d 2000-01-01 "$dest/usr/local/bin/shelfed"
SHELFED_INSTALL_DATA="$data" SHELFED_UPGRADE_PULL=no \
    make --no-print-directory upgrade DESTDIR="$dest" PREFIX=/usr/local >"$data/upgrade.log" 2>&1 ||
    { cat "$data/upgrade.log" >&2; fail "make upgrade failed"; }
python3 - "$data"/backups/before-upgrade-*.zip <<'PY' || fail "make upgrade took no full backup before installing"
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
assert "shelfed.sqlite" in names and "manifest.json" in names, names
PY
[ -n "$(find "$dest/usr/local/bin/shelfed" -newermt 2001-01-01)" ] || fail "make upgrade did not install the new binary"
grep -q "the household's own line" "$dest/etc/shelfed/shelfed.env" || fail "make upgrade replaced the settings"

make --no-print-directory uninstall DESTDIR="$dest" PREFIX=/usr/local >/dev/null
[ ! -e "$dest/usr/local/bin/shelfed" ] && [ ! -e "$share" ] && [ ! -e "$unit" ] || fail "uninstall left files"
grep -q "the household's own line" "$dest/etc/shelfed/shelfed.env" || fail "uninstall removed the settings"
echo "test-install: installed, verified, served and uninstalled."

# The .deb: its control fields and files, maintainer scripts that parse, and the binary started from its contents.
if command -v dpkg-deb >/dev/null 2>&1; then
    debs="$dest/debs"
    package=$(DEB_OUT="$debs" bash scripts/make-deb.sh)
    info=$(dpkg-deb --info "$package")
    for field in "Package: shelfed" "Architecture: $(dpkg --print-architecture)" "libvips42" "libzbar0" "adduser"; do
        grep -qF "$field" <<<"$info" || fail "the package's control lacks '$field'"
    done
    contents=$(dpkg-deb --contents "$package")
    for file in ./usr/bin/shelfed ./lib/systemd/system/shelfed.service ./etc/avahi/services/shelfed.service \
        ./usr/share/shelfed/templates/layout.mustache ./usr/share/shelfed/locales/es.po ./usr/share/shelfed/static/manifest.json \
        ./usr/share/shelfed/packaging/shelfed.env; do
        grep -qF "$file" <<<"$contents" || fail "the package lacks $file"
    done
    control="$dest/control"
    dpkg-deb --control "$package" "$control"
    for script in postinst prerm postrm; do sh -n "$control/$script" || fail "$script does not parse"; done
    grep -q "adduser --system" "$control/postinst" || fail "postinst does not make the shelfed user"
    unpacked="$dest/unpacked"
    dpkg-deb -x "$package" "$unpacked"
    grep -qxF "ExecStart=/usr/bin/shelfed serve" "$unpacked/lib/systemd/system/shelfed.service" ||
        fail "the packaged unit does not start /usr/bin/shelfed"
    rm -rf "$data" && data=$(mktemp -d)
    serve "$unpacked/usr/bin/shelfed" "$unpacked/usr/share/shelfed" packaged
    echo "test-install: $(basename "$package") holds what it should and serves from its contents."
else
    echo "test-install: dpkg-deb is not here; the .deb was not built." >&2
fi
