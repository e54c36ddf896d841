#!/bin/sh
# Builds the libFuzzer target over the study loader (tools/fuzz/study_loader_fuzz.cpp) with clang
# (-fsanitize=fuzzer,address,undefined) and runs it for SECONDS, seeded with studies/ and the bad-input
# corpus tests/pipeline/bad/. Usage: tools/fuzz.sh BUILD_DIR [SECONDS=60] [extra libFuzzer flags]
# BUILD_DIR is a configured and built (gcc) tree: the engine and experiments are linked from its static
# libraries, uninstrumented; the pipeline sources are compiled here with the sanitizers and coverage.
# Exit 77 (CTest: skipped) when clang or libFuzzer is missing; otherwise libFuzzer's status (0 = no finding).
# Findings (crash-*, timeout-*, leak-*) are written to BUILD_DIR/fuzz/findings/.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: tools/fuzz.sh BUILD_DIR [SECONDS]}" && pwd)
seconds=${2:-60}
[ $# -ge 2 ] && shift 2 || shift $#
CLANG=${CLANG:-$(command -v clang++ || command -v clang++-14 || true)}
if [ -z "$CLANG" ]; then echo "fuzz: clang++ not found (apt-get install clang): skipped"; exit 77; fi
out=$build/fuzz
mkdir -p "$out/obj" "$out/corpus" "$out/findings"
# libFuzzer ships with Debian's clang as libclang-rt-<version>-dev: probe it.
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' > "$out/probe.cpp"
if ! "$CLANG" -fsanitize=fuzzer "$out/probe.cpp" -o "$out/probe" 2>/dev/null; then
  echo "fuzz: $CLANG cannot link -fsanitize=fuzzer (apt-get install libclang-rt-14-dev): skipped"; exit 77
fi
for lib in core/libgrainlab_core.a experiments/libgrainlab_experiments.a pipeline/libgrainlab_pipeline.a; do
  [ -f "$build/$lib" ] || { echo "fuzz: $build/$lib missing: build the project first"; exit 1; }
done
flags="-std=c++20 -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
       -I$src -DGRAINLAB_GIT_VERSION=\"fuzz\" -DGRAINLAB_BUILD_TYPE=\"fuzz\"
       -DGRAINLAB_SOURCE_DIR=\"$src\" $(pkg-config --cflags eigen3 tomlplusplus)"
objs=""
# The loader's sources (clang 14 cannot compile all of pipeline/: it lacks C++20 captures of structured
# bindings); anything else comes from the gcc-built pipeline library.
for f in "$src"/pipeline/study.cpp "$src"/pipeline/units.cpp "$src"/pipeline/fit.cpp "$src"/tools/fuzz/study_loader_fuzz.cpp; do
  o=$out/obj/$(basename "$f" .cpp).o
  # Recompile when the source or any header of the tree is newer (coarse, but only a few files).
  if [ ! -f "$o" ] || [ -n "$(find "$src/pipeline" "$src/experiments" "$src/core" "$f" -newer "$o" -name '*.[hc]pp' | head -1)" ]; then
    echo "fuzz: compiling $(basename "$f")"
    # shellcheck disable=SC2086
    "$CLANG" $flags -c "$f" -o "$o"
  fi
  objs="$objs $o"
done
# shellcheck disable=SC2086
"$CLANG" -fsanitize=fuzzer,address,undefined $objs "$build/pipeline/libgrainlab_pipeline.a" -Wl,--whole-archive "$build/experiments/libgrainlab_experiments.a" \
  -Wl,--no-whole-archive "$build/core/libgrainlab_core.a" $(pkg-config --libs tomlplusplus) -ltbb -lfmt -o "$out/study_loader_fuzz"
cp "$src"/studies/*.toml "$src"/tests/pipeline/bad/*.toml "$out/corpus/" 2>/dev/null || true
cd "$out/findings"
exec "$out/study_loader_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
  -print_final_stats=1 "$@" "$out/corpus"
