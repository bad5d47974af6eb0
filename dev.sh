#!/usr/bin/env bash
# tenball's one entry point for a fresh Debian or Raspberry Pi OS machine (Python 3.11–3.13):
# installs the Debian packages it needs, creates .venv in the repo root, then runs a job.
#
#   ./dev.sh demo [ARGS]   the main job: a recorded match replayed to a scoreboard
#   ./dev.sh test [ARGS]   lint, type checks and the whole test suite (ARGS go to pytest)
set -euo pipefail
cd "$(dirname "$(readlink -f "$0")")"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

apt_install() {
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "need root or sudo to install: ${missing[*]}" >&2; exit 1; }
        sudo="sudo"
    fi
    say "installing Debian packages: ${missing[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

venv() {
    apt_install python3 python3-venv ca-certificates
    local stamp=.venv/.installed
    local want
    want=$(sha256sum pyproject.toml | cut -d' ' -f1)
    if [ -x .venv/bin/python ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
        return 0
    fi
    say "creating .venv and installing tenball with its development tools"
    [ -x .venv/bin/python ] || python3 -m venv .venv
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e '.[dev]'
    echo "$want" > "$stamp"
}

job=${1:-}
[ $# -gt 0 ] && shift
case "$job" in
    demo)
        venv
        # The demo runs the match through a local broker to the scoreboards, as a table would.
        apt_install mosquitto
        exec .venv/bin/tenball demo "$@"
        ;;
    test)
        venv
        # Tests talk to a real broker, and look at the web scoreboard in a real browser
        # (DejaVu has the Hebrew glyphs).
        # systemd-analyze checks the units; openssl makes the broker's TLS test certificate.
        apt_install mosquitto chromium fonts-dejavu-core systemd openssl
        say "ruff"
        .venv/bin/ruff check .
        .venv/bin/ruff format --check .
        say "mypy"
        .venv/bin/mypy
        # The fixture generator's own environment (pooltool): its truth is checked against
        # the simulator's events.
        say "fixture simulator (.venv-sim)"
        bash fixtures/setup-sim.sh
        say "pytest"
        exec .venv/bin/pytest "$@"
        ;;
    *)
        sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2
        exit 2
        ;;
esac
