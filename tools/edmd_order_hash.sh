#!/usr/bin/env bash
# Does an engine change keep the event-driven engine's events in the same order? Builds
# tools/edmd_order_hash.cpp against core/edmd of BASE (a commit, default HEAD) and of the work tree, with the
# project's flags, runs both (a few CPU seconds) and compares. Exit 0: identical; 1: different.
#   tools/edmd_order_hash.sh [BASE]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
base=${1:-HEAD}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/base"
git -C "$root" archive "$base" core | tar -x -C "$tmp/base"
flags=(-std=c++20 -O3 -DNDEBUG -march=x86-64-v3 -Wall -Wextra -isystem /usr/include/eigen3)
build() {  # $1: source root, $2: output
  g++ "${flags[@]}" -I "$1" "$1/core/edmd/system.cpp" "$1/core/edmd/placement.cpp" "$root/tools/edmd_order_hash.cpp" -o "$2"
}
build "$tmp/base" "$tmp/hash_base" & build "$root" "$tmp/hash_tree" & wait
"$tmp/hash_base" > "$tmp/base.txt"
"$tmp/hash_tree" > "$tmp/tree.txt"
echo "base ($base):"; cat "$tmp/base.txt"
echo "work tree:"; cat "$tmp/tree.txt"
if cmp -s "$tmp/base.txt" "$tmp/tree.txt"; then echo "same event order"; else echo "DIFFERENT"; exit 1; fi
