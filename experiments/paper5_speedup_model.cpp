#include "experiments/paper5_speedup_model.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "core/error.hpp"

namespace grainlab::paper5 {
namespace {
void require(bool ok, const std::string& what) {
  if (!ok) throw InputError(what);
}
}  // namespace

void validate_speedup_inputs(double h, double delta, double gamma) {
  require(h >= 0.0 && h <= 1.0, "h: the reduction level must lie in [0, 1], got " + std::to_string(h));
  require(delta >= 0.0 && std::isfinite(delta), "delta: the overhead must be finite and >= 0, got " + std::to_string(delta));
  require(gamma >= 0.0 && std::isfinite(gamma), "gamma: the iteration exponent must be finite and >= 0, got " + std::to_string(gamma));
}

double reduced_solve_fraction(double h, double gamma) { return std::pow(1.0 - h, 1.0 + gamma); }

double contact_split_overhead(double alpha, double particles, double gamma) {
  require(alpha >= 0.0, "alpha: must be >= 0");
  require(particles > 0.0, "particles: N_p must be > 0");
  return alpha * std::pow(particles, -gamma);
}

double trial_split_overhead(double beta, double tolerance_ratio, double gamma) {
  require(beta >= 0.0 && beta <= 1.0, "beta: the trial-solved fraction must lie in [0, 1]");
  require(tolerance_ratio > 0.0, "tolerance_ratio: eps/eps_mod must be > 0");
  return std::pow(beta, 1.0 + gamma) * tolerance_ratio;
}

double model_speedup(double h, double delta, double gamma) {
  validate_speedup_inputs(h, delta, gamma);
  return 1.0 / (delta + reduced_solve_fraction(h, gamma));
}

double level_for_speedup(double speedup, double delta, double gamma) {
  require(speedup > 0.0, "speedup: must be > 0");
  validate_speedup_inputs(0.0, delta, gamma);
  const double fraction = 1.0 / speedup - delta;  // (1 - h)^{1+gamma} needed
  if (fraction <= 0.0) return std::numeric_limits<double>::quiet_NaN();
  const double h = 1.0 - std::pow(fraction, 1.0 / (1.0 + gamma));
  return h >= 0.0 ? h : 0.0;  // S <= 1 is reached without reduction
}

double measured_overhead(double seconds_reduction, double seconds_solve_unreduced) {
  require(seconds_solve_unreduced > 0.0, "seconds_solve_unreduced: the unreduced solve time must be > 0");
  require(seconds_reduction >= 0.0, "seconds_reduction: must be >= 0");
  return seconds_reduction / seconds_solve_unreduced;
}

}  // namespace grainlab::paper5
