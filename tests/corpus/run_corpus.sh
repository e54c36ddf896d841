#!/usr/bin/env bash
# The study corpus through the real CLI (tests/corpus/manifest.txt: FILE | EXIT CODE | MODE | EXTRA ARGS |
# MESSAGE REGEX). Each case runs in its own sandbox (cwd = SANDBOX/cwd, --results SANDBOX/a/b/results, so that
# a name like "../../x" would land inside the sandbox where it is seen; the names that become paths run for
# real, mode run, so that a broken check would write there) and must:
#   - exit with the listed code within the mode's time limit (dry1s: 1 s, dry: 10 s, drylong and run: 120 s);
#   - print a line matching the regex (for bad input: FILE:LINE: KEY: message);
#   - write nothing outside the results folder, and leave no partial results (.tmp-* folders; for exit 2
#     or a dry run, no results at all).
# The corpus folder itself and /tmp/grainlab_corpus_abs* (the absolute-name cases) must stay untouched.
# Usage: run_corpus.sh GRAINLAB_BINARY [CORPUS_DIR]. Prints one line per failure and a summary.
set -u
bin=$1
dir=${2:-$(dirname "$0")}
manifest=$dir/manifest.txt
work=$(mktemp -d "${TMPDIR:-/tmp}/grainlab_corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT
rm -rf /tmp/grainlab_corpus_abs*
before=$(ls -la "$dir" | md5sum)
trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; printf '%s' "${s%"${s##*[![:space:]]}"}"; }
total=0 failed=0
while IFS='|' read -r file rc mode args regex; do
  file=$(trim "$file")
  [[ -z $file || $file == \#* ]] && continue
  rc=$(trim "$rc") mode=$(trim "$mode") args=$(trim "$args") regex=$(trim "$regex")
  total=$((total + 1))
  box=$work/$total
  mkdir -p "$box/cwd" "$box/a/b"
  results=$box/a/b/results
  extra=()
  [[ $args != - ]] && read -r -a extra <<<"$args"
  case $mode in
    dry1s) limit=1 flags=(--dry-run) ;;
    dry) limit=10 flags=(--dry-run) ;;
    drylong) limit=120 flags=(--dry-run) ;;
    run) limit=120 flags=(--jobs 1) ;;
    *) echo "FAIL $file: unknown mode '$mode'"; failed=$((failed + 1)); continue ;;
  esac
  start=$(date +%s%N)
  (cd "$box/cwd" && timeout 300 "$bin" run "$dir/$file" --results "$results" "${flags[@]}" "${extra[@]}" >"$box/out" 2>&1)
  got=$?
  elapsed=$((($(date +%s%N) - start) / 1000000))
  why=""
  [[ $got != "$rc" ]] && why+=" exit $got, expected $rc;"
  ((elapsed > limit * 1000)) && why+=" took ${elapsed} ms, limit ${limit} s;"
  grep -Eq -- "$regex" "$box/out" || why+=" no line matches /$regex/;"
  outside=$(cd "$box" && find . -mindepth 1 ! -path ./out ! -path ./cwd ! -path ./a ! -path ./a/b ! -path './a/b/results' ! -path './a/b/results/*')
  [[ -n $outside ]] && why+=" wrote outside the results folder: $(echo $outside);"
  if [[ -d $results ]]; then
    partial=$(find "$results" -name '.tmp-*')
    [[ -n $partial ]] && why+=" left partial results: $(echo $partial);"
    if [[ $rc == 2 || $mode != run ]] && [[ -n $(find "$results" -mindepth 1) ]]; then why+=" wrote results although it must not;"; fi
  elif [[ $mode == run && $rc != 2 ]]; then
    why+=" a real run wrote no results;"
  fi
  if [[ -n $why ]]; then
    failed=$((failed + 1))
    echo "FAIL $file:$why"
    sed 's/^/    | /' "$box/out" | head -5
  fi
done <"$manifest"
abs=$(ls -d /tmp/grainlab_corpus_abs* 2>/dev/null)
[[ -n $abs ]] && { echo "FAIL: written through an absolute name: $(echo $abs)"; failed=$((failed + 1)); }
[[ $(ls -la "$dir" | md5sum) != "$before" ]] && { echo "FAIL: the corpus folder changed"; failed=$((failed + 1)); }
echo "corpus: $((total - failed)) of $total cases pass"
((failed == 0))
