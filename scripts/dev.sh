#!/usr/bin/env bash
# Amicus Desktop from a source checkout, in one command.
#
#   scripts/dev.sh run     set up, prepare scripture.db once (all 66 books to read, Romans and John to search;
#                          the app grows the rest in the background), start the local embed proxy,
#                          open the app (stops the proxy when the app closes)
#   scripts/dev.sh test    set up, then lint (ruff), type-check (mypy --strict) and run every test (offscreen)
#   scripts/dev.sh setup   only set up: Debian packages + .venv with the project and its test tools
#
# Set-up is idempotent and quick when nothing changed. It installs the Debian packages the project
# needs (the public-domain SWORD modules the demo data is built from, X libraries for a real
# window) with apt-get when they are missing, and a virtual environment in .venv.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
export OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"  # 2 BLAS threads made a product 6x slower on 2 cores

APT_PACKAGES=(
  sword-text-web sword-text-kjv sword-comm-mhcc sword-comm-scofield sword-comm-tdavid
  sword-dict-strongs-greek sword-dict-strongs-hebrew sword-dict-naves
  bibledit-data  # G. Abbott-Smith's Manual Greek Lexicon (TEI), docs/DATA.md
  appstream desktop-file-utils
  libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0 libegl1 libgl1 libfontconfig1 libdbus-1-3
  fonts-dejavu-core
)

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

find_python() {
  for candidate in "${PYTHON:-}" python3 python3.13 python3.12 python3.11; do
    [ -n "$candidate" ] || continue
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
      command -v "$candidate"; return 0
    fi
  done
  echo "Amicus Desktop needs Python 3.11 or newer (set PYTHON=/path/to/python3.11)." >&2
  return 1
}

setup_apt() {
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    say "Not a Debian/Ubuntu system: install these yourself if needed: ${missing[*]}"
    return 0
  fi
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  say "Installing Debian packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

setup_venv() {
  local stamp="$VENV/.amicus-installed"
  if [ ! -x "$PY" ]; then
    say "Creating the virtual environment in .venv"
    "$(find_python)" -m venv "$VENV"
  fi
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    say "Installing Amicus Desktop and its dependencies into .venv"
    "$PY" -m pip install -q --upgrade pip
    "$PY" -m pip install -q -e ".[test,e5,postgres]"
    touch "$stamp"
  fi
}

setup() {
  setup_apt
  setup_venv
}

# The app's own resolution (flag > environment > saved settings > default): amicus_desktop/config.py.
proxy_url() { "$PY" -m amicus_desktop.config proxy_url; }
db_path() { "$PY" -m amicus_desktop.config db_path; }

PROXY_PID=""
stop_proxy() {
  if [ -n "$PROXY_PID" ]; then
    kill "$PROXY_PID" 2>/dev/null || true
    wait "$PROXY_PID" 2>/dev/null || true
  fi
}

cmd_run() {
  setup
  local db url port
  db="$(db_path)"
  url="$(proxy_url)"
  port="${url##*:}"; port="${port%%/*}"
  if [ ! -f "$db" ]; then
    say "Preparing scripture.db at $db: all 66 books to read, Romans and John to search (about 5 minutes, once);"
    say "the rest of the Bible becomes searchable in the background while the app runs"
    "$VENV/bin/amicus-desktop" build-db --all --resume --stop-after 2 --out "$db"
  fi
  if "$PY" -c "import httpx,sys; sys.exit(0 if httpx.get('$url/health', timeout=1).status_code == 200 else 1)" 2>/dev/null; then
    say "An embed proxy already answers at $url; using it"
  else
    say "Starting the local embed proxy at $url"
    "$VENV/bin/amicus-desktop" proxy --port "$port" &
    PROXY_PID=$!
    trap stop_proxy EXIT
    for _ in $(seq 1 100); do
      "$PY" -c "import httpx,sys; sys.exit(0 if httpx.get('$url/health', timeout=1).status_code == 200 else 1)" 2>/dev/null && break
      kill -0 "$PROXY_PID" 2>/dev/null || { echo "The embed proxy did not start." >&2; exit 1; }
      sleep 0.2
    done
  fi
  if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ "$(uname)" = "Darwin" ]; then
    say "Opening Amicus Desktop"
    "$VENV/bin/amicus-desktop" --db "$db" --proxy "$url" "$@"
  else
    mkdir -p out
    say "No display here: asking one question and saving the window as out/amicus-desktop.png"
    "$VENV/bin/amicus-desktop" query "How is a person justified before God?" --db "$db" --proxy "$url" --chapter romans:3
    QT_QPA_PLATFORM=offscreen "$VENV/bin/amicus-desktop" --db "$db" --proxy "$url" --chapter romans:3 \
      --query "How is a person justified before God?" --screenshot out/amicus-desktop.png
    say "Saved out/amicus-desktop.png (run under a desktop session, or xvfb-run, to use the window)"
  fi
}

cmd_test() {
  setup
  # The gates first (seconds, not minutes): lint and strict types, configured in pyproject.toml.
  say "Lint: ruff check"
  "$VENV/bin/ruff" check amicus_desktop tests scripts tools research
  say "Types: mypy --strict"
  "$VENV/bin/mypy"
  say "Running every test (offscreen)"
  QT_QPA_PLATFORM=offscreen "$PY" -m pytest "$@"
}

case "${1:-}" in
  run) shift; cmd_run "$@" ;;
  test) shift; cmd_test "$@" ;;
  setup) setup ;;
  *) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
