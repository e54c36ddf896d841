#include "experiments/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace grainlab {

double eq41_height(double l, double w, double c2, double narrow_width) {
  return w >= narrow_width ? w * (1.0 - std::exp(-c2 * l / w)) : c2 * l;
}

double eq41_iterations(double l, double w, double I, double eps, double c0, double c1, double c2, double narrow_width) {
  return c0 * (1.0 + c1 * I) / eps * eq41_height(l, w, c2, narrow_width);
}

CostEstimate estimate_cost(const CostInputs& in) {
  const double d = in.d, l = in.length, w = in.width, eps = in.tolerance, g = in.gravity;
  const bool wide = w >= 5.0;  // narrow systems (w = 1) are 1D columns: N_p = l, Eq. (41) narrow limit
  CostEstimate c;
  c.N_p = in.particles > 0 ? in.particles : wide ? std::numbers::pi / 4.0 * w * w * l : l;
  c.N_c = in.contacts_per_particle * c.N_p;
  const double h_eff = eq41_height(l, w, in.c2);
  c.N_it = in.iterations > 0 ? in.iterations : eq41_iterations(l, w, in.inertial_number, eps, in.c0, in.c1, in.c2);
  c.v_n = in.normal_velocity > 0 ? in.normal_velocity : 0.2 * in.inertial_number * std::sqrt(2.0 / 3.0 * g * d * h_eff);
  const double m = in.density * std::numbers::pi * d * d * d / 6.0;
  const double k = in.youngs_modulus * std::sqrt(2.0 * d) / (3.0 * (1.0 - in.poisson_ratio * in.poisson_ratio));
  c.h_S = in.sdem_time_step > 0 ? in.sdem_time_step : std::sqrt(m / k);
  if (in.ndem_time_step > 0) {
    c.h_N = in.ndem_time_step;
  } else {
    c.h_N = std::sqrt(2.0 * eps * d / g);
    if (c.v_n > 0.0) c.h_N = std::min(c.h_N, eps * d / c.v_n);
  }
  if (in.h_ndem_max > 0.0) c.h_N = std::min(c.h_N, in.h_ndem_max);
  c.tauS_over_treal = in.K_sdem * c.N_p / c.h_S;
  c.tauN_over_treal = (in.K_ndem * c.N_it * c.N_c + in.K_ndem_overhead * c.N_p) / c.h_N;
  return c;
}

}  // namespace grainlab
