#include "core/stability_guard.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/energy_observer.hpp"

namespace grainlab {

double StabilityGuard::mechanical_energy(const World& w) { return w.particles.kinetic_energy() + io::gravitational_energy(w); }

StabilityGuard::StabilityGuard(const World& w, StabilityLimits limits, std::string label)
    : limits_(limits), label_(std::move(label)), start_(mechanical_energy(w)) {
  if (!(limits_.max_energy_gain > 0) || !(limits_.max_overlap_ratio > 0))
    throw InputError(fmt::format("{}: stability limits must be > 0 (energy gain {}, overlap ratio {})", label_,
                                 limits_.max_energy_gain, limits_.max_overlap_ratio));
  // Gravity magnitude: the largest over the run is not known here; use the full strength of the ramp.
  const double g = w.gravity.g.norm();
  double drop = 0;
  for (std::size_t i = 0; i < w.particles.size(); ++i) drop += w.particles.mass[i] * g * w.particles.radius[i];
  scale_ = w.particles.kinetic_energy() + drop;
  // A world at rest without gravity has no energy to compare with: any motion at all is a gain.
  if (!(scale_ > 0)) scale_ = std::numeric_limits<double>::min();
}

double StabilityGuard::energy_gain(const World& w) const { return (mechanical_energy(w) - start_) / scale_; }

void StabilityGuard::check(const World& w) const {
  try {
    w.check_stability(limits_.max_overlap_ratio);
  } catch (const InstabilityError& e) {
    throw InstabilityError(fmt::format("{}: {}", label_, e.what()), e.step);
  }
  const double gain = energy_gain(w);
  if (!std::isfinite(gain) || gain > limits_.max_energy_gain)
    throw InstabilityError(
        fmt::format("{}: step {} (t = {:.6g} s): energy blow-up, the mechanical energy rose by {:.3g} J, "
                    "{:.3g} times the energy scale {:.3g} J (start kinetic energy + sum m g r; limit {}); the time "
                    "step is likely too large for the contact stiffness",
                    label_, w.step, w.time, gain * scale_, gain, scale_, limits_.max_energy_gain),
        w.step);
}

}  // namespace grainlab
