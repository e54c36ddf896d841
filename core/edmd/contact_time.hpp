#pragma once
// Collision times. Every event the engine predicts is the first time a quadratic "gap"
//   h(tau) = h0 + w tau + alpha tau^2 / 2
// reaches zero while decreasing (h' < 0): a pair (h = |dx + dv tau|^2 - sigma^2, Eq. 3.7-3.8, relative
// motion is linear because both balls feel the same gravity), a flat lid moving on its parabola (Eq.
// 3.10-3.12), the cylinder side wall (h = (R - r)^2 - rho^2, the formula the thesis leaves out: the wall moves
// only along z, so the horizontal motion is linear) and a cell face. A double root (grazing, h' = 0) is no
// collision (002 l.727, 764).
#include <cmath>
#include <limits>

namespace grainlab::edmd {

inline constexpr double never = std::numeric_limits<double>::infinity();

/// Smallest tau >= 0 with h(tau) = 0 and h'(tau) < 0; `never` if none. A gap already closed and closing
/// (h0 <= 0 and w < 0, or w = 0 with alpha < 0: from rounding, or a ball at rest on a floor) collides now (0).
inline double approach_root(double h0, double w, double alpha) {
  if (h0 <= 0 && (w < 0 || (w == 0 && alpha < 0))) return 0.0;  // in contact and closing (a resting ball)
  if (alpha == 0) {
    if (w >= 0) return never;
    return h0 <= 0 ? 0.0 : -h0 / w;
  }
  const double disc = w * w - 2 * alpha * h0;
  if (disc <= 0) return never;
  const double s = std::sqrt(disc);
  // The root where h' = w + alpha tau = -s, written without cancellation.
  const double tau = w <= 0 ? 2 * h0 / (s - w) : (-w - s) / alpha;
  if (tau >= 0) return tau;
  return (h0 <= 0 && w < 0) ? 0.0 : never;
}

}  // namespace grainlab::edmd
