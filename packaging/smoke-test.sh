#!/usr/bin/env bash
# Smoke-test a one-folder bundle: does it run on its own, with no Python installation to lean on?
#
#   packaging/smoke-test.sh [dist/amicus-desktop]
#
# Every bundle command runs with a scrubbed environment (env -i: no PATH to any Python, no
# PYTHONHOME/PYTHONPATH, HOME and AMICUS_HOME in a temporary folder, QT_QPA_PLATFORM=offscreen)
# and, where this user may create a mount namespace (root on Linux), with every Python
# installation on the machine hidden under an empty tmpfs. It checks:
#   1. --version prints "amicus-desktop X.Y.Z";
#   2. doctor runs without a database or proxy, reports Python (the bundle's), Qt and SQLite,
#      says sqlite-vec loads — from the library inside the bundle — and exits 1 for the
#      missing database;
#   3. the bundle's own `proxy` starts with the bundled embedding model (port 0);
#   4. the bundle builds a scripture.db itself (build-db --books jude, from the Debian SWORD
#      modules); where those are not installed, packaging/smoke_db.py writes a tiny one from
#      the proxy's vectors instead ($SMOKE_PYTHON, default build/bundle-venv/bin/python);
#   5. doctor is then all green (exit 0) and `query --json` returns ranked results;
#   6. --screenshot writes a valid PNG offscreen, with that database, proxy and a question
#      (skipped, and said so, only for a checkout without amicus_desktop/ui/app.py).
# Exit 0 when all pass. SMOKE_KEEP_SCREENSHOT=FILE keeps the screenshot; SMOKE_BUILD_DB=0 skips
# the build-db step (the helper database is used instead).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUNDLE="$(cd "${1:-$ROOT/dist/amicus-desktop}" && pwd)"
EXE="$BUNDLE/amicus-desktop"
HELPER_PY="${SMOKE_PYTHON:-$ROOT/build/bundle-venv/bin/python}"
[ -x "$EXE" ] || { echo "smoke-test: no bundle at $EXE (run packaging/build-linux.sh)" >&2; exit 2; }

TMP="$(mktemp -d)"
PROXY_PID=""
cleanup() {
  if [ -n "$PROXY_PID" ]; then kill "$PROXY_PID" 2>/dev/null; wait "$PROXY_PID" 2>/dev/null; fi
  rm -rf "$TMP"
}
trap cleanup EXIT
mkdir -p "$TMP/home" "$TMP/amicus" "$TMP/empty-bin"

FAILED=0
if [ -t 1 ]; then G=$'\033[32m' R=$'\033[31m' Y=$'\033[33m' N=$'\033[0m'; else G="" R="" Y="" N=""; fi
pass() { printf '  %sPASS%s %s\n' "$G" "$N" "$*"; }
fail() { printf '  %sFAIL%s %s\n' "$R" "$N" "$*"; FAILED=1; }
skip() { printf '  %sSKIP%s %s\n' "$Y" "$N" "$*"; }
show() { sed 's/^/       | /' "$1" | head -n "${2:-40}"; }

# -- how the bundle is run: scrubbed environment, Pythons hidden ---------------------------------
HIDE=()
for d in /usr/lib/python3* /usr/local/lib/python3* /usr/lib64/python3* "$HOME/.pyenv" /opt/python* \
         "$ROOT/.venv" "$ROOT/build/bundle-venv"; do
  [ -d "$d" ] || continue
  case "$BUNDLE/" in "$d"/*) continue ;; esac  # never hide the bundle itself
  HIDE+=("$d")
done
ISOLATE=none
if [ "$(uname)" = Linux ] && command -v unshare >/dev/null 2>&1 &&
   unshare --mount --propagation private true 2>/dev/null; then
  ISOLATE=namespace
fi

# SWORD libraries named by the caller reach the bundle (build-db reads the modules from them).
SWORD_DIRS="${AMICUS_SWORD_PATH:-${SWORD_PATH:-}}"

# bundle_cmd ARGS... : sets CMD to the bundle command line, with nothing of Python around it.
bundle_cmd() {
  CMD=(env -i "PATH=$TMP/empty-bin" "HOME=$TMP/home" "AMICUS_HOME=$TMP/amicus" "LANG=C.UTF-8"
       "QT_QPA_PLATFORM=offscreen" "OPENBLAS_NUM_THREADS=1" "TMPDIR=$TMP"
       ${SWORD_DIRS:+"AMICUS_SWORD_PATH=$SWORD_DIRS"} "$EXE" "$@")
  if [ "$ISOLATE" = namespace ]; then
    # A private mount namespace; each Python installation gets an empty read-only tmpfs on top.
    # unshare, sh and env all exec, so the process left is the bundle itself (signals reach it).
    # shellcheck disable=SC2016
    CMD=(unshare --mount --propagation private sh -c '
      n="$1"; shift
      i=0; while [ "$i" -lt "$n" ]; do mount -t tmpfs -o ro,size=4k none "$1" || exit 97; shift; i=$((i+1)); done
      exec "$@"' sh "${#HIDE[@]}" "${HIDE[@]}" "${CMD[@]}")
  fi
}

# run_bundle OUT ERR ARGS... : run the bundle to completion.
run_bundle() {
  local out="$1" err="$2"; shift 2
  bundle_cmd "$@"
  "${CMD[@]}" >"$out" 2>"$err"
}

echo "Smoke test of $BUNDLE ($(du -sh "$BUNDLE" | cut -f1))"
if [ "$ISOLATE" = namespace ]; then
  echo "  Python installations hidden from the bundle: ${HIDE[*]:-none found}"
else
  echo "  (no mount namespace here: the environment is scrubbed, Python installations stay visible)"
fi

# 1. --version --------------------------------------------------------------------------------
run_bundle "$TMP/out" "$TMP/err" --version; rc=$?
if [ $rc -eq 0 ] && grep -Eq '^amicus-desktop [0-9]+\.[0-9]+' "$TMP/out"; then
  pass "--version: $(cat "$TMP/out")"
else
  fail "--version (exit $rc)"; show "$TMP/out"; show "$TMP/err"
fi

# 2. doctor without database or proxy -----------------------------------------------------------
run_bundle "$TMP/out" "$TMP/err" doctor --proxy http://127.0.0.1:9; rc=$?
ok=1
grep -q '✓ sqlite-vec .* loads from '"$BUNDLE"'/' "$TMP/out" || { ok=0; echo "    sqlite-vec does not load from inside the bundle"; }
grep -q '✓ Python .*'"$BUNDLE"'/' "$TMP/out" || { ok=0; echo "    doctor's Python is not the bundle's"; }
grep -q '✓ Qt (PySide6) *[0-9]' "$TMP/out" || { ok=0; echo "    no Qt version"; }
grep -q '✓ SQLite (apsw)' "$TMP/out" || { ok=0; echo "    no SQLite line"; }
grep -q '✗ Database' "$TMP/out" || { ok=0; echo "    no failing Database line"; }
if [ $rc -eq 1 ] && [ $ok -eq 1 ]; then
  pass "doctor runs, sqlite-vec loads from the bundle, exit 1 for the missing DB and proxy"
else
  fail "doctor without DB (exit $rc, want 1)"; show "$TMP/out"; show "$TMP/err"
fi

# 3. the bundle's own embed proxy, with the bundled model --------------------------------------------
DB="$TMP/scripture.db"
PROXY_URL=""
bundle_cmd proxy --port 0 --log-level warning
( exec "${CMD[@]}" >"$TMP/proxy.out" 2>"$TMP/proxy.err" ) &
PROXY_PID=$!
for _ in $(seq 1 300); do  # up to 60 s: the model loads before the proxy listens
  PROXY_URL="$(sed -n 's/.*listening on \(http:\/\/[^ ]*\) .*/\1/p' "$TMP/proxy.out" 2>/dev/null | head -n1)"
  [ -n "$PROXY_URL" ] && break
  kill -0 "$PROXY_PID" 2>/dev/null || break
  sleep 0.2
done
if [ -n "$PROXY_URL" ]; then
  pass "proxy: $(head -n1 "$TMP/proxy.out")"
else
  fail "the bundle's embed proxy did not start"; show "$TMP/proxy.out"; show "$TMP/proxy.err"
fi

# 4. a scripture.db: built by the bundle itself from the SWORD modules (Jude: about 35 s), or,
#    where those are not installed, written from the proxy's vectors by packaging/smoke_db.py --------
QUESTION="How is a person justified before God?"
CHAPTER=romans:3
if [ "${SMOKE_BUILD_DB:-1}" = 1 ] && { [ -d /usr/share/sword/mods.d ] || [ -n "$SWORD_DIRS" ]; }; then
  start=$(date +%s)
  run_bundle "$TMP/out" "$TMP/err" build-db --books jude --out "$DB" --quiet; rc=$?
  if [ $rc -eq 0 ] && [ -s "$DB" ]; then
    pass "build-db --books jude built a scripture.db in $(( $(date +%s) - start ))s: $(grep -m1 '^Built' "$TMP/out" | cut -c1-90)…"
    QUESTION="Why should believers contend for the faith?"
    CHAPTER=jude:1
  else
    fail "build-db --books jude (exit $rc)"; show "$TMP/out"; show "$TMP/err"
  fi
else
  if [ "${SMOKE_BUILD_DB:-1}" = 1 ]; then
    skip "build-db: no SWORD modules here (Debian: apt-get install sword-text-web sword-text-kjv sword-comm-mhcc …)"
  else
    skip "build-db (SMOKE_BUILD_DB=0)"
  fi
  if [ -z "$PROXY_URL" ]; then
    :
  elif [ ! -x "$HELPER_PY" ]; then
    fail "no helper Python at $HELPER_PY to write a test database (set SMOKE_PYTHON)"
  elif env -u PYTHONPATH "$HELPER_PY" "$ROOT/packaging/smoke_db.py" "$DB" "$PROXY_URL" >"$TMP/db.out" 2>&1; then
    pass "test database written from the bundle's proxy vectors (packaging/smoke_db.py)"
  else
    fail "writing the test database"; show "$TMP/db.out"
  fi
fi

# 5. doctor all green and a query, against that database and the bundle's proxy --------------------
if [ -s "$DB" ] && [ -n "$PROXY_URL" ]; then
  run_bundle "$TMP/out" "$TMP/err" doctor --db "$DB" --proxy "$PROXY_URL"; rc=$?
  if [ $rc -eq 0 ] && grep -q '✓   matches database' "$TMP/out" && grep -q 'All good' "$TMP/out"; then
    pass "doctor all green with the database and the bundle's proxy"
  else
    fail "doctor with database and proxy (exit $rc, want 0)"; show "$TMP/out"; show "$TMP/err"
  fi
  run_bundle "$TMP/out" "$TMP/err" query "$QUESTION" --db "$DB" --proxy "$PROXY_URL" --chapter "$CHAPTER" --json; rc=$?
  if [ $rc -eq 0 ] && grep -q '"rank": *1,' "$TMP/out"; then
    pass "query --json returns ranked results"
  else
    fail "query --json (exit $rc)"; show "$TMP/out" 10; show "$TMP/err"
  fi
fi

# 6. --screenshot offscreen ------------------------------------------------------------------------
PNG="$TMP/shot.png"
shot_args=(--screenshot "$PNG")
[ -s "$DB" ] && shot_args+=(--db "$DB" --chapter "$CHAPTER")
[ -n "$PROXY_URL" ] && shot_args+=(--proxy "$PROXY_URL" --query "$QUESTION")
run_bundle "$TMP/out" "$TMP/err" "${shot_args[@]}"; rc=$?
if [ ! -f "$ROOT/amicus_desktop/ui/app.py" ] && grep -q "No module named 'amicus_desktop.ui.app'" "$TMP/err"; then
  skip "--screenshot: this build has no desktop UI yet (amicus_desktop/ui/app.py)"
elif [ $rc -eq 0 ] && [ -s "$PNG" ] && [ "$(head -c 8 "$PNG" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
  dims="$(od -An -tu1 -j16 -N8 "$PNG" | awk '{print $3*256+$4 "x" $7*256+$8}')"
  pass "--screenshot wrote a ${dims} PNG offscreen"
  [ -n "${SMOKE_KEEP_SCREENSHOT:-}" ] && cp "$PNG" "$SMOKE_KEEP_SCREENSHOT"
else
  fail "--screenshot (exit $rc, no valid PNG)"; show "$TMP/out"; show "$TMP/err"
fi

if [ $FAILED -eq 0 ]; then echo "Smoke test passed."; else echo "Smoke test FAILED."; fi
exit $FAILED
