#pragma once
// Instantaneous, central, frictionless collisions (Gavrilov Eq. 3.13-3.18, 002 l.774-800): only the
// normal velocity components change; tangential components (and spin, which the model ignores) stay.
namespace grainlab::edmd {

/// Normal velocities after a pair collision, Eq. (3.16): v1 = (alpha - eps) v10 + (1 - alpha + eps) v20,
/// v2 = alpha v10 + (1 - alpha) v20, alpha = (1 + eps) m1 / (m1 + m2).
struct PairOutcome {
  double v1 = 0, v2 = 0;
  double loss = 0;  ///< kinetic energy dissipated, m1 m2 / (m1 + m2) (1 - eps^2) (v20 - v10)^2 / 2
};

inline PairOutcome pair_collision(double m1, double m2, double v10, double v20, double eps) {
  const double alpha = (1 + eps) * m1 / (m1 + m2);
  const double dv = v20 - v10;
  PairOutcome o;
  o.v1 = (alpha - eps) * v10 + (1 - alpha + eps) * v20;
  o.v2 = alpha * v10 + (1 - alpha) * v20;
  o.loss = 0.5 * m1 * m2 / (m1 + m2) * (1 - eps * eps) * dv * dv;
  return o;
}

/// A ball (mass m1, normal velocity v10) hits a wall of infinite mass moving with normal velocity v20,
/// Eq. (3.17): v1 = v20 + eps (v20 - v10).
struct WallOutcome {
  double v1 = 0;
  double loss = 0;       ///< m1 (1 - eps^2) (v20 - v10)^2 / 2
  double wall_work = 0;  ///< work done by the wall, (1 + eps) m1 v20 (v20 - v10); so dKE = wall_work - loss
  double impulse = 0;    ///< |m1 (v1 - v10)|, for the wall pressure
};

inline WallOutcome wall_collision(double m1, double v10, double v20, double eps) {
  const double dv = v20 - v10;
  WallOutcome o;
  o.v1 = v20 + eps * dv;
  o.loss = 0.5 * m1 * (1 - eps * eps) * dv * dv;
  o.wall_work = (1 + eps) * m1 * v20 * dv;
  o.impulse = (1 + eps) * m1 * (dv < 0 ? -dv : dv);
  return o;
}

/// The thesis's printed "energy contributed" by the wall, Eq. (3.18): exact only for eps = 1 (P6).
inline double wall_energy_printed(double m1, double v10, double v20) { return 2 * m1 * v20 * (v20 - v10); }

}  // namespace grainlab::edmd
