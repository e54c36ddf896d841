#!/usr/bin/env bash
# Renders a report page (default results/index.html) in headless Chromium and saves a PNG screenshot, to
# make sure the page really renders in a browser. Usage: tools/screenshot.sh [PAGE.html] [OUT.png]
# Exit 77 (CTest "skipped") when no Chromium is installed; 1 when the page does not render.
set -euo pipefail
page=${1:-results/index.html}
out=${2:-${page%.html}.png}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "screenshot: no chromium found (apt-get install chromium); skipped"
  exit 77
fi
[ -f "$page" ] || { echo "screenshot: $page not found (run make reproduce first)"; exit 1; }
rm -f "$out"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
  --window-size=1200,3000 --screenshot="$out" "file://$(realpath "$page")" >/dev/null 2>&1 || true
# A rendered page is a PNG of the requested size with some content (not a blank/tiny image).
if [ ! -s "$out" ] || [ "$(stat -c %s "$out")" -lt 20000 ]; then
  echo "screenshot: $page did not render ($out missing or blank)"
  exit 1
fi
echo "screenshot: $out ($(stat -c %s "$out") bytes)"
