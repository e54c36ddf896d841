#pragma once
// Shared NDEM row maths (issue 27 item 2), step 1: the friction/rolling projection used by the sphere
// sweeps (core/ndem/pgs.cpp) and the body rows (core/ndem/body_rows.cpp). One source so both
// solvers clamp a row pair with the same operations in the same order (results bit for bit those
// of the former copies).

#include <algorithm>
#include <cmath>

namespace grainlab::ndem_rows {

// Projects (x, y) on the disk |(x, y)| <= bound (the friction cone's cross-section at a given
// normal impulse); a point inside stays, a point outside is scaled radially onto the circle.
inline void project_disk(double& x, double& y, double bound) {
  const double m = std::sqrt(x * x + y * y);
  if (m > bound) {
    const double f = m > 0 ? bound / m : 0.0;
    x *= f;
    y *= f;
  }
}

// Clamps the pair (x, y) to the disk (cone == true) or to the box |x|,|y| <= bound.
inline void project_pair(double& x, double& y, double bound, bool cone) {
  if (cone) {
    project_disk(x, y, bound);
  } else {
    x = std::clamp(x, -bound, bound);
    y = std::clamp(y, -bound, bound);
  }
}

}  // namespace grainlab::ndem_rows
