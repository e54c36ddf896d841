#pragma once
// The NDEM stages' loops over rows, records or bodies whose iteration i writes only what belongs to i:
// run in parallel blocks of at least policy::ndem_row_block. No iteration reads another's result, so no
// result depends on how the range is split or on the thread count.
#include <cstddef>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "core/scheduling_policy.hpp"

namespace grainlab::ndem_rows {

/// f(i) for every i < n.
template <class F>
void for_each_in_blocks(std::size_t n, F&& f) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, policy::ndem_row_block), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) f(i);
  });
}

}  // namespace grainlab::ndem_rows
