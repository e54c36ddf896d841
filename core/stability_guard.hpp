#pragma once
// A shared guard that turns a diverging run into an InstabilityError with a diagnosis instead of a
// result. Two symptoms, checked against limits stated up front:
//   - energy blow-up: the mechanical energy E = kinetic + gravitational (io::gravitational_energy) may only fall in a
//     passive system (static walls, no motors, no external forces); a rise of more than
//     `max_energy_gain` times the energy scale (E_kin at the start + sum m |g| r, i.e. the energy of the
//     start motion plus dropping every particle by its radius) is numerical energy creation;
//   - overlap beyond `max_overlap_ratio` of the smaller radius, or a non-finite state
//     (World::check_stability).
// Both methods (SDEM and NDEM) use the same guard; experiments that drive the system (pistons, applied
// forces) must not use the energy part.
#include <string>

#include "core/world.hpp"

namespace grainlab {

struct StabilityLimits {
  double max_energy_gain = 0.25;   ///< allowed rise of E over its start value, in units of the energy scale
  double max_overlap_ratio = 0.5;  ///< overlap / smaller radius
};

class StabilityGuard {
 public:
  /// Records the start energy of `world` (call after the particles are placed and given their speeds).
  /// `label` names the scenario in messages.
  StabilityGuard(const World& world, StabilityLimits limits, std::string label);

  /// Throws InstabilityError (message "<label>: step N (t = ...): <diagnosis>") when a limit is exceeded;
  /// the runner stores it as "unstable at step N: <message>" and `grainlab run` exits 3.
  void check(const World& world) const;
  /// (E - E_start) / energy scale: > max_energy_gain is a blow-up.
  double energy_gain(const World& world) const;

  /// Mechanical energy, J: kinetic (translational + rotational) + gravitational with the gravity at world.time.
  static double mechanical_energy(const World& world);

 private:
  StabilityLimits limits_;
  std::string label_;
  double start_ = 0, scale_ = 0;
};

}  // namespace grainlab
