#pragma once
// The element type of the NDEM row maths: one contact (double) or four contacts of a colour (V4, GCC
// vector extensions: AVX where the build has it, SSE2 pairs without). The block update and the sphere
// contact's state (core/ndem/block_update.hpp) are written once on these operations, so the scalar and the
// four-lane sweep run the same maths (docs/ndem_row_model.md).
#include <algorithm>
#include <cmath>

#include "core/ndem/row_model.hpp"

namespace grainlab::ndem_rows {

typedef double V4 __attribute__((vector_size(32)));

inline V4 vsplat(double x) { return V4{x, x, x, x}; }

[[gnu::always_inline]] inline double max0(double x) { return std::max(0.0, x); }
[[gnu::always_inline]] inline V4 max0(V4 x) {  // std::max(0.0, x) per lane
  const V4 z{};
  return z < x ? x : z;
}

[[gnu::always_inline]] inline double absolute(double x) { return std::abs(x); }
[[gnu::always_inline]] inline V4 absolute(V4 x) {  // std::abs per lane: the sign bit cleared
  typedef long long M4 __attribute__((vector_size(32)));
  return V4(M4(x) & ~M4(vsplat(-0.0)));
}

[[gnu::always_inline]] inline double clamp(double x, double lo, double hi) { return std::clamp(x, lo, hi); }
[[gnu::always_inline]] inline V4 clamp(V4 x, V4 lo, V4 hi) { return x < lo ? lo : (hi < x ? hi : x); }  // std::clamp per lane

// project_pair per lane: each lane projected as one contact is.
inline void project_pair(V4& x, V4& y, V4 bound, bool cone) {
  if (!cone) {
    x = clamp(x, -bound, bound);
    y = clamp(y, -bound, bound);
    return;
  }
  for (int l = 0; l < 4; ++l) {
    double xl = x[l], yl = y[l];
    project_disk(xl, yl, bound[l]);
    x[l] = xl;
    y[l] = yl;
  }
}

}  // namespace grainlab::ndem_rows
