#pragma once
// The NDEM stages' loops over rows, records or bodies whose iteration i writes only what belongs to i:
// run in parallel in fixed blocks of policy::ndem_row_block. No iteration reads another's result, and
// neither the blocks nor the code a block runs through depend on the thread count: an iteration's rounding
// can depend on the code around it (with TBB's partitioner cutting the blocks by thread count, one row's q_n
// came out in a different last bit on one and two threads from the same inputs).
// And the loops whose rows add to their bodies' sums: each sum must take its terms in row order (another
// order differs in the last bits), so the bodies are split instead of the rows.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/scheduling_policy.hpp"

namespace grainlab::ndem_rows {

/// f(i) for i in [begin, end). Out of line, so that a block runs the same code whatever other blocks its
/// task holds: inlined into TBB's loop over a task's blocks, the fixed blocks still gave one and two threads
/// different last bits from 9216 particles on (the compiler is free to transform the nested loops as one).
template <class F>
[[gnu::noinline]] void run_block(std::size_t begin, std::size_t end, F& f) {
  for (std::size_t i = begin; i != end; ++i) f(i);
}

/// f(i) for every i < n, in blocks [k B, (k + 1) B) of B = policy::ndem_row_block.
template <class F>
void for_each_in_blocks(std::size_t n, F&& f) {
  const std::size_t blocks = (n + policy::ndem_row_block - 1) / policy::ndem_row_block;
  tbb::parallel_for(std::size_t(0), blocks, [&](std::size_t b) {
    run_block(b * policy::ndem_row_block, std::min(n, (b + 1) * policy::ndem_row_block), f);
  });
}

/// f(lo, hi) for ranges [lo, hi) that split the bodies [0, n), at most one per thread and none smaller than
/// policy::ndem_row_block, each on one thread.
template <class F>
void for_each_body_range(std::size_t n, F&& f) {
  const std::size_t threads = std::size_t(std::max(1, tbb::this_task_arena::max_concurrency()));
  const std::size_t parts = std::max<std::size_t>(1, std::min(threads, n / policy::ndem_row_block));
  if (parts == 1) return f(std::size_t(0), n);
  tbb::parallel_for(std::size_t(0), parts, [&](std::size_t p) { f(n * p / parts, n * (p + 1) / parts); });
}

/// add(i, to_a, to_b) for the rows i < a.size() that add to bodies a[i] and b[i] (b[i] < 0: a wall), split by
/// body range (for_each_body_range): each range walks every row in order and adds only to the sides it owns
/// (to_a, to_b), the first range also to the walls, so each body's sum is the serial loop's, term for term,
/// whatever the thread count. (The walk is repeated per range; the rows' arithmetic is not, but for rows
/// whose bodies lie in two ranges.)
template <class F>
void add_rows_by_body(std::size_t bodies, const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b,
                      F&& add) {
  for_each_body_range(bodies, [&](std::size_t lo, std::size_t hi) {
    auto owns = [lo, hi](std::int32_t body) { return body >= 0 ? std::size_t(body) >= lo && std::size_t(body) < hi : lo == 0; };
    for (std::size_t i = 0; i < a.size(); ++i) {
      const bool to_a = owns(a[i]), to_b = owns(b[i]);
      if (to_a || to_b) add(i, to_a, to_b);
    }
  });
}

}  // namespace grainlab::ndem_rows
