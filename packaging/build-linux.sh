#!/usr/bin/env bash
# Build the one-folder Linux bundle of Amicus Desktop: dist/amicus-desktop/amicus-desktop.
#
#   packaging/build-linux.sh            build (a clean build environment in build/bundle-venv)
#   packaging/build-linux.sh --smoke    build, then run packaging/smoke-test.sh on the result
#   packaging/build-linux.sh --tar      build, then pack dist/amicus-desktop-VERSION-linux-ARCH.tar.gz
#
# Needs Python 3.11+ built with a shared libpython (Debian's python3 and pyenv's are) and the
# network to PyPI the first time. It creates build/bundle-venv (kept between builds, so a rebuild
# downloads nothing), installs Amicus Desktop into it from this checkout — as a wheel would be,
# not editable — with the pinned PyInstaller of the `packaging` extra, and runs
# packaging/amicus-desktop.spec. Nothing outside build/ and dist/ is touched.
#
# Environment: PYTHON (interpreter to build with), AMICUS_BUILD_VENV (build environment folder),
# AMICUS_DIST (output folder, default dist).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="${AMICUS_BUILD_VENV:-$ROOT/build/bundle-venv}"
DIST="${AMICUS_DIST:-$ROOT/dist}"
WORK="$ROOT/build/pyinstaller"
SMOKE=0
TAR=0
for arg in "$@"; do
  case "$arg" in
    --smoke) SMOKE=1 ;;
    --tar) TAR=1 ;;
    *) echo "build-linux.sh: unknown option $arg (--smoke, --tar)" >&2; exit 2 ;;
  esac
done

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

find_python() {
  for candidate in "${PYTHON:-}" python3.11 python3 python3.12 python3.13; do
    [ -n "$candidate" ] || continue
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
      command -v "$candidate"; return 0
    fi
  done
  echo "Building the bundle needs Python 3.11 or newer (set PYTHON=/path/to/python3.11)." >&2
  return 1
}

mkdir -p "$ROOT/build"
if command -v flock >/dev/null 2>&1; then
  # One build at a time per checkout: two would share build/bundle-venv and build/pyinstaller.
  exec 9>"$ROOT/build/.build-linux.lock"
  flock 9
fi

start=$(date +%s)
if [ ! -x "$VENV/bin/python" ]; then
  py="$(find_python)"
  say "Creating the build environment $VENV with $py"
  "$py" -m venv "$VENV"
fi
PY="$VENV/bin/python"
export OPENBLAS_NUM_THREADS=1 PIP_DISABLE_PIP_VERSION_CHECK=1
say "Installing Amicus Desktop (not editable) and PyInstaller into the build environment"
"$PY" -m pip install -q --upgrade pip
# A local folder is always rebuilt and reinstalled, so the bundle has this checkout's code.
"$PY" -m pip install -q "$ROOT[packaging]"

say "Running PyInstaller (packaging/amicus-desktop.spec)"
rm -rf "$DIST/amicus-desktop"
# The console script, not `python -m PyInstaller`: -m would put this checkout on sys.path and
# bundle the source tree (and its stale egg-info) instead of the installed package.
"$VENV/bin/pyinstaller" --noconfirm --clean --log-level WARN \
  --distpath "$DIST" --workpath "$WORK" "$ROOT/packaging/amicus-desktop.spec"

BUNDLE="$DIST/amicus-desktop"
[ -x "$BUNDLE/amicus-desktop" ] || { echo "PyInstaller made no $BUNDLE/amicus-desktop" >&2; exit 1; }

# Beside the program, what someone who unpacks the folder needs: a README, and install.sh with
# the desktop entry, metainfo and icons it installs.
APP_ID="io.github.amicus_desktop.amicus_desktop"
VERSION="$("$PY" -c 'import amicus_desktop; print(amicus_desktop.__version__)')"
mkdir -p "$BUNDLE/share/applications" "$BUNDLE/share/metainfo"
cp "packaging/linux/$APP_ID.desktop" "$BUNDLE/share/applications/"
cp "packaging/linux/$APP_ID.metainfo.xml" "$BUNDLE/share/metainfo/"
cp -r resources/icons "$BUNDLE/share/icons"
install -m 755 packaging/install-linux.sh "$BUNDLE/install.sh"
sed -e "s/@VERSION@/$VERSION/" -e "s/@ARCH@/$(uname -m)/" packaging/linux/README-bundle.txt > "$BUNDLE/README.txt"
elapsed=$(( $(date +%s) - start ))
size="$(du -sh "$BUNDLE" | cut -f1)"
say "Built $BUNDLE ($size) in ${elapsed}s: run $BUNDLE/amicus-desktop"

if [ "$SMOKE" = 1 ]; then
  "$ROOT/packaging/smoke-test.sh" "$BUNDLE"
fi
if [ "$TAR" = 1 ]; then
  tarball="$DIST/amicus-desktop-$VERSION-linux-$(uname -m).tar.gz"
  say "Packing $tarball"
  tar -C "$DIST" -czf "$tarball" amicus-desktop
  say "Packed $tarball ($(du -sh "$tarball" | cut -f1))"
fi
