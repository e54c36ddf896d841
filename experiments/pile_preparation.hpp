#pragma once
// A resting conical pile for the Paper IV E2b solver diagnostics (000 l.1656, 1669; 001 l.128, 139): mono-
// disperse spheres emitted at rest, at random (x, y) in a horizontal square patch `width` diameters wide
// centred `height` diameters above a ground plane, at `rate` per second until `count` are in (ledger E2:
// "3d wide", 15d, 3363 particles; the rate is the ledger's default), then left to settle until every
// particle is slower than `rest_speed` (at least `settle_min` and at most `settle_max` seconds after the
// last emission). The stepper passed in decides the preparation's N_it and warm start ("a stationary pile
// is prepared by using 500 iterations", 000 l.1669).
// Kept small and self-contained; the E2 pile formation (experiments/ndem_pile.cpp, another helper's) may
// later share it.
// Reads and writes the World; serial (the stepper's own threading aside).
#include <cstdint>
#include <functional>

#include "core/material.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/world.hpp"

namespace grainlab {

struct PileSource {
  double diameter = 0.013;     ///< m
  double height = 15;          ///< centre of the emission patch above the ground, in diameters
  double width = 3;            ///< side of the square patch, in diameters
  double rate = 200;           ///< particles per second
  int count = 3363;            ///< particles to emit
  std::uint64_t seed = 1;
};

struct PileRestRule {
  double rest_speed = 0.01;    ///< m/s: at rest when every particle is slower
  double settle_min = 1;       ///< s after the last emission, at least
  double settle_max = 10;      ///< s after the last emission, at most (then at_rest = false)
};

struct PileStats {
  std::size_t particles = 0;
  double emission_end = 0;     ///< s, time of the last emission
  double settle_time = 0;      ///< s from the last emission to rest (or settle_max)
  double max_speed = 0;        ///< m/s, largest particle speed at the end
  bool at_rest = false;
  double height = 0;           ///< m, top of the highest sphere
};

/// World with gravity |g| along -z, material `m` and a ground plane z = 0 of the same material.
World pile_world(const Material& m, double gravity);

/// Largest particle speed (m/s).
double max_particle_speed(const World& w);
/// Top of the highest sphere (m).
double pile_top(const World& w);

/// Emits and settles the pile in `w` (from pile_world) with `ndem`; `progress` (may be empty) gets the
/// fraction of the work done. Throws InputError on a bad source or rule, naming the parameter.
PileStats prepare_resting_pile(World& w, const PileSource& source, const PileRestRule& rest, NdemStepper& ndem,
                               const std::function<void(double)>& progress = {});

}  // namespace grainlab
