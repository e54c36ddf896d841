// What one pass over the pair candidates costs in memory traffic alone (docs/performance.md, round 5).
//
// Until round 6 the SDEM lane kernel read and wrote the first two cache lines (128 B) of each 256-byte
// `Contact` (ids, normal, point, overlap, R*, tangential spring, force) and skipped the other two; since
// then it works on the compact `PairHistory` measured here as the 32-byte record. This benchmark
// does only that traffic, with no arithmetic: one read-modify-write of those 16 doubles per record,
// over as many records as the settled beds of bench_sdem_bed have candidates (3.04 per particle at 10k,
// 3.26 at 100k), with and without the kernel's software prefetch (32 records ahead). For comparison the
// same pass over a compact 32-byte record (tangential spring and overlap: the only per-step state a
// candidate must keep) shows what a structure-of-arrays contact store would leave of that cost.
//
// The 256-byte record is the round-5 `Contact` layout, kept here as raw bytes (the record is 136 bytes
// since the model history moved out of it).
//
// Counter: s_per_particle = time of one pass / particles of the bed.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <vector>

namespace {

// The round-5 contact record: 256 bytes, cache-line aligned; the kernel's 14 doubles at bytes 16..127.
struct alignas(64) Record256 {
  double head[2];
  double hot[14];
  double rest[16];
};
static_assert(sizeof(Record256) == 256);

struct Compact {
  double spring[3];
  double overlap;
};

// range(0): particles in thousands (10 or 100); range(1): 0 = Contact records, 1 = the same with the
// kernel's prefetch, 2 = compact records.
void BM_contact_stream(benchmark::State& state) {
  const std::size_t particles = std::size_t(state.range(0)) * 1000;
  const std::size_t n = particles * (state.range(0) == 10 ? 304 : 326) / 100;
  constexpr std::size_t prefetch_distance = 32;
  const int variant = int(state.range(1));
  std::vector<Record256> contacts(variant == 2 ? 0 : n + prefetch_distance);
  std::vector<Compact> compact(variant == 2 ? n : 0);
  for (auto _ : state) {
    if (variant == 2) {
      for (std::size_t k = 0; k < n; ++k) {
        for (double& s : compact[k].spring) s += 1.0;
        compact[k].overlap += 1.0;
      }
    } else {
      for (std::size_t k = 0; k < n; ++k) {
        if (variant == 1) {
          const char* ahead = reinterpret_cast<const char*>(&contacts[k + prefetch_distance]);
          __builtin_prefetch(ahead, 1);
          __builtin_prefetch(ahead + 64, 1);
        }
        // The kernel's fields: normal, point, overlap, R*, spring and force span bytes 16..127.
        for (double& x : contacts[k].hot) x += 1.0;
      }
    }
    benchmark::ClobberMemory();
  }
  state.counters["s_per_particle"] =
      benchmark::Counter(double(particles), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_contact_stream)->ArgsProduct({{10, 100}, {0, 1, 2}})->ArgNames({"kN", "variant"});

}  // namespace

BENCHMARK_MAIN();
