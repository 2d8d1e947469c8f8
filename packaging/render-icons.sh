#!/usr/bin/env bash
# Render the application icon's PNG sizes from its SVG source (run after editing the SVG).
#
#   packaging/render-icons.sh
#
# Writes resources/icons/hicolor/<N>x<N>/apps/<id>.png for every size a Linux desktop and the
# Windows/macOS icon files need. The PNGs are committed (they are source assets), so building
# needs no SVG renderer; this script needs rsvg-convert (Debian: apt-get install librsvg2-bin).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
APP_ID="io.github.amicus_desktop.amicus_desktop"
SVG="$ROOT/resources/icons/$APP_ID.svg"
SIZES=(16 22 24 32 48 64 128 256 512)

if ! command -v rsvg-convert >/dev/null 2>&1; then
  echo "rsvg-convert is missing: apt-get install librsvg2-bin (Debian/Ubuntu) or brew install librsvg." >&2
  exit 1
fi
for n in "${SIZES[@]}"; do
  out="$ROOT/resources/icons/hicolor/${n}x${n}/apps/$APP_ID.png"
  mkdir -p "$(dirname "$out")"
  rsvg-convert --width "$n" --height "$n" --format png "$SVG" --output "$out"
  echo "$out"
done
