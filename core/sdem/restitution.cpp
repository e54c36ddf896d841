#include "core/sdem/restitution.hpp"

#include <cmath>
#include <map>
#include <mutex>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/math.hpp"

namespace grainlab::sdem {

namespace {

// Dimensionless repulsive force (before clamping) of the law at overlap x >= 0 and rate v.
double raw_force(DampedLaw law, double eta, double x, double v) {
  x = std::max(x, 0.0);
  if (law == DampedLaw::hertz) return x * std::sqrt(x) + eta * std::sqrt(std::sqrt(x)) * v;
  return x + eta * v;
}

double acceleration(DampedLaw law, double eta, double x, double v) { return -std::max(0.0, raw_force(law, eta, x, v)); }

}  // namespace

double restitution_of(DampedLaw law, double eta, double h) {
  double x = 0, v = 1;
  // The contact lasts ~3.2 (hertz) or ~pi (linear) time units when elastic; strong damping lengthens
  // the release phase. 1e3 units is far beyond any case that ends with a measurable e.
  const long max_steps = long(1e3 / h);
  double f_prev = 0;
  for (long k = 0; k < max_steps; ++k) {
    const double k1x = v, k1v = acceleration(law, eta, x, v);
    const double k2x = v + 0.5 * h * k1v, k2v = acceleration(law, eta, x + 0.5 * h * k1x, v + 0.5 * h * k1v);
    const double k3x = v + 0.5 * h * k2v, k3v = acceleration(law, eta, x + 0.5 * h * k2x, v + 0.5 * h * k2v);
    const double k4x = v + h * k3v, k4v = acceleration(law, eta, x + h * k3x, v + h * k3v);
    const double x_new = x + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
    const double v_new = v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    const double f_new = raw_force(law, eta, x_new, v_new);
    if (v_new < 0 && (f_new <= 0 || x_new <= 0)) {
      // End of contact inside this step: interpolate the speed where the force reaches zero.
      if (f_new <= 0 && f_prev > 0) return -(v + (v_new - v) * f_prev / (f_prev - f_new));
      return -v_new;
    }
    x = x_new;
    v = v_new;
    f_prev = f_new;
  }
  return 0.0;  // never separated within the horizon: fully plastic
}

double damping_for_restitution(DampedLaw law, double e) {
  if (!std::isfinite(e) || e < 0 || e > 1)
    throw InputError(fmt::format("restitution = {} is invalid (must be in [0, 1])", e));
  if (e == 1) return 0;
  static std::mutex mutex;
  static std::map<std::pair<int, double>, double> cache;
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_pair(int(law), e);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  double lo = 0, hi = 1;
  constexpr double eta_max = 20;
  while (hi < eta_max && restitution_of(law, hi) > e) hi = std::min(2 * hi, eta_max);
  double eta = hi;
  if (restitution_of(law, hi) <= e) {
    for (int it = 0; it < 60 && hi - lo > 1e-12 * hi; ++it) {
      const double mid = 0.5 * (lo + hi);
      (restitution_of(law, mid) > e ? lo : hi) = mid;
    }
    eta = 0.5 * (lo + hi);
  }
  cache.emplace(key, eta);
  return eta;
}

double equivalent_damping_ratio(double e) {
  if (e <= 0) return 1.0;
  const double l = std::log(e);
  return -l / std::sqrt(pi * pi + l * l);
}

}  // namespace grainlab::sdem
