#!/usr/bin/env bash
# Renders the report pages in headless Chromium and checks the text a reader sees (the DOM after
# parsing): on index.html every study's verdict summary line and the claims coverage table, on each
# paper page its coverage row and every one of its claims, and nowhere a literal `**` (unrendered
# Markdown). Then a screenshot of index.html (tools/screenshot.sh).
# Usage: tools/check_report.sh GRAINLAB RESULTS_DIR [STUDIES_DIR] [TIER]
# Rewrites the pages first (grainlab report, from the stored runs). Exit 77 (CTest "skipped") only when
# Chromium is not installed or cannot start at all; 1 when a page lacks what it must show.
set -euo pipefail
grainlab=$1
results=$2
here=$(cd "$(dirname "$0")" && pwd)
studies=${3:-$here/../studies}
tier=${4:-quick}
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "check_report: no chromium found (apt-get install chromium); skipped"
  exit 77
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
dom() { timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$profile" --dump-dom "$1" 2>/dev/null || true; }
if ! dom about:blank | grep -q '<body'; then
  echo "check_report: $browser cannot start here; skipped"
  exit 77
fi

# Page text: tags to spaces, entities decoded, whitespace squeezed onto one line.
squeeze() { tr -s ' \n\t' '   '; }
text() { dom "file://$(realpath "$1")" | sed -e 's/<[^>]*>/ /g' -e 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&amp;/\&/g' | squeeze; }
# A Markdown table row as its rendered cell text: bars and bold markers dropped.
row_text() { sed -e 's/\*\*//g' -e 's/|/ /g' | squeeze | sed -e 's/^ //' -e 's/ $//'; }

"$grainlab" report --tier "$tier" --results "$results" >/dev/null 2>&1 || true
fail=0
need() {  # need PAGE_TEXT_FILE TEXT WHAT
  grep -qF -- "$2" "$1" || { echo "check_report: $(basename "$1" .txt) lacks $3: '$2'"; fail=1; }
}
work=$(mktemp -d)
trap 'rm -rf "$profile" "$work"' EXIT
[ -f "$results/index.html" ] || { echo "check_report: $results/index.html not written"; exit 1; }
text "$results/index.html" > "$work/index.txt"

n=0
for f in "$studies"/*.toml; do
  name=$(sed -n 's/^name *= *"\(.*\)".*/\1/p' "$f" | head -n 1)
  summary="$results/$name/$tier/summary.txt"
  if [ ! -f "$summary" ]; then echo "check_report: study $name has no $summary"; fail=1; continue; fi
  need "$work/index.txt" "$(squeeze < "$summary" | sed 's/ $//')" "the verdict summary of $name"
  n=$((n + 1))
done

"$grainlab" report --claims --tier "$tier" --results "$results" > "$work/coverage.md" 2>/dev/null || true
grep -q '^| paper |' "$work/coverage.md" || { echo "check_report: grainlab report --claims printed no table"; exit 1; }
papers=()
while IFS= read -r line; do
  case "$line" in '|---'*) continue ;; esac
  need "$work/index.txt" "$(row_text <<< "$line")" "the coverage row"
  p=$(cut -d'|' -f2 <<< "$line" | tr -d ' *')
  [ "$p" = paper ] || [ "$p" = total ] || papers+=("$p")
done < "$work/coverage.md"

for p in "${papers[@]}"; do
  page="$results/paper_$p.html"
  [ -f "$page" ] || { echo "check_report: $page not written"; fail=1; continue; }
  text "$page" > "$work/paper_$p.txt"
  need "$work/paper_$p.txt" "Paper $p — claims" "its title"
  need "$work/paper_$p.txt" "$(grep "^| $p |" "$work/coverage.md" | row_text)" "its coverage row"
  need "$work/index.txt" "Paper $p" "a link to the page of Paper $p"
  "$grainlab" report --claims --list "$p" --tier "$tier" --results "$results" 2>/dev/null | sed -n 's/^| \([A-Z0-9]*-C[0-9]*\) | \([a-z ]*\) |.*/\1 \2/p' > "$work/list_$p.txt" || true
  [ -s "$work/list_$p.txt" ] || { echo "check_report: grainlab report --claims --list $p listed nothing"; fail=1; }
  while read -r id verdict; do
    need "$work/paper_$p.txt" " $id $verdict " "claim $id with its verdict"
  done < "$work/list_$p.txt"
  if grep -qF '**' "$work/paper_$p.txt"; then echo "check_report: paper_$p.html shows a literal **"; fail=1; fi
done
if grep -qF '**' "$work/index.txt"; then echo "check_report: index.html shows a literal **"; fail=1; fi

"$here/screenshot.sh" "$results/index.html" "$results/index.png" || fail=1
[ "$fail" = 0 ] || exit 1
echo "check_report: index.html shows the $n studies' verdict lines and the coverage table; ${#papers[@]} paper pages list their claims"
