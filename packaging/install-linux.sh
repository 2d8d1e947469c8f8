#!/usr/bin/env bash
# Install Amicus Desktop for one user on Linux (no root): the program and its menu entry.
#
#   install.sh                       from an unpacked bundle: copy it to ~/.local/lib/amicus-desktop,
#                                    link ~/.local/bin/amicus-desktop, add the menu entry and icons
#   packaging/install-linux.sh --bundle dist/amicus-desktop     the same, from a checkout
#   packaging/install-linux.sh --desktop-only                   only the menu entry, icons and
#                                    metainfo, for an amicus-desktop already on PATH (pip, pipx)
#   … --uninstall                    remove what the same options installed (never your data)
#   … --prefix DIR                   install under DIR instead of ~/.local (e.g. /usr/local as root)
#
# Your scripture.db, settings and logs are not in the program folder (they live in
# ~/.local/share/amicus-desktop, ~/.config/amicus-desktop, ~/.local/state/amicus-desktop/log), so
# reinstalling or uninstalling leaves them alone.
set -euo pipefail

APP_ID="io.github.amicus_desktop.amicus_desktop"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PREFIX="${HOME}/.local"
BUNDLE=""
MODE=bundle
UNINSTALL=0

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) PREFIX="$2"; shift 2 ;;
    --bundle) BUNDLE="$2"; shift 2 ;;
    --desktop-only) MODE=desktop; shift ;;
    --uninstall) UNINSTALL=1; shift ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

# Where the desktop files are: beside this script in a bundle (share/), or in the checkout.
if [ -f "$HERE/share/applications/$APP_ID.desktop" ]; then  # running from an unpacked bundle
  SHARE="$HERE/share"
  [ -z "$BUNDLE" ] && [ "$MODE" = bundle ] && BUNDLE="$HERE"
elif [ -f "$HERE/linux/$APP_ID.desktop" ]; then  # running from packaging/ in a checkout or sdist
  SHARE=""
  DESKTOP_SRC="$HERE/linux/$APP_ID.desktop"
  METAINFO_SRC="$HERE/linux/$APP_ID.metainfo.xml"
  ICONS_SRC="$HERE/../resources/icons"
else
  echo "install: cannot find $APP_ID.desktop beside $0" >&2; exit 1
fi
if [ -n "$SHARE" ]; then
  DESKTOP_SRC="$SHARE/applications/$APP_ID.desktop"
  METAINFO_SRC="$SHARE/metainfo/$APP_ID.metainfo.xml"
  ICONS_SRC="$SHARE/icons"
fi

LIBDIR="$PREFIX/lib/amicus-desktop"
BINLINK="$PREFIX/bin/amicus-desktop"
APPS="$PREFIX/share/applications"
METAINFO="$PREFIX/share/metainfo"
HICOLOR="$PREFIX/share/icons/hicolor"

refresh_caches() {
  command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$APPS" 2>/dev/null || true
  # Only refresh an icon cache that exists: creating one in a user's folder could hide icons
  # that other programs add later without refreshing it.
  if [ -f "$HICOLOR/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null 2>&1; then
    gtk-update-icon-cache -q -t "$HICOLOR" 2>/dev/null || true
  fi
}

if [ "$UNINSTALL" = 1 ]; then
  rm -f "$APPS/$APP_ID.desktop" "$METAINFO/$APP_ID.metainfo.xml" "$HICOLOR/scalable/apps/$APP_ID.svg"
  for png in "$HICOLOR"/*/apps/"$APP_ID.png"; do [ -e "$png" ] && rm -f "$png"; done
  if [ "$MODE" = bundle ]; then
    if [ -L "$BINLINK" ] && [ "$(readlink "$BINLINK")" = "$LIBDIR/amicus-desktop" ]; then rm -f "$BINLINK"; fi
    rm -rf "$LIBDIR"
  fi
  refresh_caches
  echo "Uninstalled Amicus Desktop from $PREFIX (your library, settings and logs are kept)."
  exit 0
fi

if [ "$MODE" = bundle ]; then
  [ -n "$BUNDLE" ] || { echo "install: give --bundle dist/amicus-desktop (or --desktop-only)" >&2; exit 2; }
  BUNDLE="$(cd "$BUNDLE" && pwd)"
  [ -x "$BUNDLE/amicus-desktop" ] || { echo "install: no amicus-desktop program in $BUNDLE" >&2; exit 1; }
  if [ "$BUNDLE" != "$LIBDIR" ]; then
    rm -rf "$LIBDIR.new"
    mkdir -p "$(dirname "$LIBDIR")"
    cp -a "$BUNDLE" "$LIBDIR.new"
    rm -rf "$LIBDIR"
    mv "$LIBDIR.new" "$LIBDIR"
  fi
  mkdir -p "$(dirname "$BINLINK")"
  ln -sfn "$LIBDIR/amicus-desktop" "$BINLINK"
  EXEC="$BINLINK"
else
  EXEC="$(command -v amicus-desktop || true)"
  [ -n "$EXEC" ] || { echo "install: amicus-desktop is not on PATH (pipx install amicus-desktop first)" >&2; exit 1; }
fi

mkdir -p "$APPS" "$METAINFO" "$HICOLOR/scalable/apps"
# The menu entry runs the program by absolute path: ~/.local/bin is not on every session's PATH.
sed "s|^Exec=amicus-desktop|Exec=$EXEC|" "$DESKTOP_SRC" > "$APPS/$APP_ID.desktop"
cp "$METAINFO_SRC" "$METAINFO/$APP_ID.metainfo.xml"
cp "$ICONS_SRC/$APP_ID.svg" "$HICOLOR/scalable/apps/$APP_ID.svg"
for dir in "$ICONS_SRC"/hicolor/*/apps; do
  size="$(basename "$(dirname "$dir")")"
  mkdir -p "$HICOLOR/$size/apps"
  cp "$dir/$APP_ID.png" "$HICOLOR/$size/apps/$APP_ID.png"
done
refresh_caches
echo "Installed Amicus Desktop: $EXEC, menu entry $APPS/$APP_ID.desktop"
case ":$PATH:" in *":$(dirname "$BINLINK"):"*) ;; *)
  [ "$MODE" = bundle ] && echo "Note: $(dirname "$BINLINK") is not on your PATH; the menu entry works regardless." ;;
esac
exit 0
