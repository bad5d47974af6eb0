#!/bin/sh
# Install tenball's services from this checkout (Raspberry Pi OS / Debian, as root):
#
#   sudo systemd/install.sh                 referee service + broker settings, enabled and started
#   sudo systemd/install.sh --scoreboard    also the scoreboard service
#   systemd/install.sh --root DIR           only write the files under DIR (packaging, tests)
#
# Run it from a checkout outside /home and /root (the unit's ProtectHome= hides those), e.g.
# /opt/tenball, after `./dev.sh` or the README's set-up has made .venv. It is safe to run again:
# existing configuration and passwords are kept.
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
root=""
scoreboard=no
while [ $# -gt 0 ]; do
    case "$1" in
        --root) root=$2; shift 2 ;;
        --scoreboard) scoreboard=yes; shift ;;
        *) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done

tenball="$repo/.venv/bin/tenball"
[ -x "$tenball" ] || { echo "install.sh: $tenball missing: set up .venv first (README)" >&2; exit 1; }
if [ -z "$root" ]; then
    [ "$(id -u)" -eq 0 ] || { echo "install.sh: run as root (sudo)" >&2; exit 1; }
    case "$repo/" in
        /home/*|/root/*) echo "install.sh: $repo is under /home or /root, which the service cannot" \
            "see (ProtectHome=yes); move the checkout to /opt/tenball" >&2; exit 1 ;;
    esac
fi

say() { printf '==> %s\n' "$*" >&2; }
# install -D with a mode, keeping a file that is already there (operators' edits, passwords).
keep_or_install() { [ -e "$3" ] || install -D -m "$1" "$2" "$3"; }

say "units into $root/etc/systemd/system"
for unit in tenball-referee.service tenball-scoreboard.service; do
    mkdir -p "$root/etc/systemd/system"
    sed "s#/opt/tenball#$repo#g" "$repo/systemd/$unit" > "$root/etc/systemd/system/$unit"
    chmod 644 "$root/etc/systemd/system/$unit"
done

say "configuration in $root/etc/tenball (kept if present)"
keep_or_install 640 "$repo/deploy/tenball.toml" "$root/etc/tenball/tenball.toml"
table=$("$repo/.venv/bin/python" -c 'import sys, tomllib
print(tomllib.load(open(sys.argv[1], "rb")).get("table", {}).get("id", "table1"))' \
    "$root/etc/tenball/tenball.toml")

say "broker settings and ACL in $root/etc/mosquitto (kept if present)"
install -D -m 644 "$repo/deploy/mosquitto/tenball.conf" "$root/etc/mosquitto/conf.d/tenball.conf"
keep_or_install 644 "$repo/deploy/mosquitto/tenball.acl" "$root/etc/mosquitto/tenball.acl"
password_file="$root/etc/tenball/mqtt.password"
if [ ! -e "$password_file" ]; then
    say "a password for MQTT user $table"
    umask 077
    head -c 18 /dev/urandom | base64 > "$password_file"
    umask 022
    passwd_db="$root/etc/mosquitto/tenball.passwd"
    if [ -e "$passwd_db" ]; then create=""; else create="-c"; fi
    mosquitto_passwd $create -b "$passwd_db" "$table" "$(cat "$password_file")"
fi

[ -n "$root" ] && exit 0

say "system user tenball (groups video, gpio)"
id tenball >/dev/null 2>&1 || adduser --system --group --home /var/lib/tenball --no-create-home tenball
for group in video gpio; do
    getent group "$group" >/dev/null && adduser tenball "$group" >/dev/null
done
chgrp tenball /etc/tenball/tenball.toml "$password_file"
chmod 640 /etc/tenball/tenball.toml "$password_file"
chgrp mosquitto /etc/mosquitto/tenball.passwd 2>/dev/null && chmod 640 /etc/mosquitto/tenball.passwd

say "checking the configuration"
"$tenball" config check /etc/tenball/tenball.toml

say "enabling and starting the services"
systemctl daemon-reload
systemctl restart mosquitto.service
systemctl enable --now tenball-referee.service
if [ "$scoreboard" = yes ]; then
    systemctl enable --now tenball-scoreboard.service
fi
systemctl --no-pager status tenball-referee.service || true
