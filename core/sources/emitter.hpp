#pragma once
// Continuous particle emitter: inserts particles at `rate` per second into a box, with an initial
// velocity plus an optional uniform random jitter per component, radii from a distribution.
//
// Called once per step with (world, dt), between steps. The number due is accumulated exactly:
// due += rate * dt, floor(due) particles are attempted and the fractional rest carries over, so after
// time T (within [start_time, end_time)) inserted + failed = floor(rate * T) (up to rounding of the
// accumulated sum). Each particle gets `attempts` random centres; the first that does not overlap an
// existing particle (or one inserted in this call) is used; otherwise the particle counts as failed
// and is not retried later. Walls are not checked: place the region away from them.
// Particles are added with World::add_sphere (the contact detector is invalidated).
//
// Deterministic for a seed (std::mt19937_64 with our own transforms). The emitter's state (generator,
// carried fraction, counters) is not part of a World checkpoint: save_state()/restore_state() give it
// as text to store beside the checkpoint so that a restarted run emits the same particles.
// Threading: serial; one emitter per thread.
#include <cstdint>
#include <limits>
#include <string>

#include "core/sources/radius_distribution.hpp"
#include "core/sources/region.hpp"
#include "core/world.hpp"

namespace grainlab::sources {

struct EmitterSettings {
  double rate = 100;              ///< particles per second, > 0
  BoxRegion region;               ///< where centres are placed (spheres lie entirely inside)
  Vec3 velocity = Vec3::Zero();   ///< initial velocity, m/s
  double velocity_jitter = 0;     ///< each velocity component gets a uniform offset in [-jitter, jitter], m/s
  RadiusDistribution radii;
  std::uint16_t material = 0;
  std::uint64_t seed = 1;
  int attempts = 20;              ///< centres tried per particle before it counts as failed
  double start_time = 0;          ///< emits while start_time <= world.time < end_time
  double end_time = std::numeric_limits<double>::infinity();
};

class ParticleEmitter {
 public:
  /// Validates the settings (InputError naming the parameter: rate, velocity_jitter, attempts, ...).
  explicit ParticleEmitter(EmitterSettings settings);

  /// Emits the particles due over the step of length dt starting at world.time; returns how many
  /// were inserted.
  std::size_t emit(World& world, double dt);

  std::size_t inserted() const { return inserted_; }
  std::size_t failed() const { return failed_; }
  const EmitterSettings& settings() const { return settings_; }

  std::string save_state() const;
  void restore_state(const std::string& state);

 private:
  EmitterSettings settings_;
  SourceRng rng_;
  double due_ = 0;
  std::size_t inserted_ = 0, failed_ = 0;
};

}  // namespace grainlab::sources
