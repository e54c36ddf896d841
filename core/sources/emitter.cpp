#include "core/sources/emitter.hpp"

#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/sources/world_neighbours.hpp"

namespace grainlab::sources {

ParticleEmitter::ParticleEmitter(EmitterSettings s) : settings_(std::move(s)), rng_(settings_.seed) {
  const char* ctx = "emitter";
  if (!std::isfinite(settings_.rate) || settings_.rate <= 0)
    throw InputError(fmt::format("{}: rate = {} is invalid (must be > 0 particles/s)", ctx, settings_.rate));
  validate(Region(settings_.region), ctx);
  settings_.radii.validate(ctx);
  if (!fits(Region(settings_.region), settings_.radii.largest()))
    throw InputError(fmt::format("{}: region is too small for a sphere of the largest radius {}", ctx, settings_.radii.largest()));
  if (!settings_.velocity.allFinite()) throw InputError(fmt::format("{}: velocity is not finite", ctx));
  if (!std::isfinite(settings_.velocity_jitter) || settings_.velocity_jitter < 0)
    throw InputError(fmt::format("{}: velocity_jitter = {} is invalid (must be >= 0)", ctx, settings_.velocity_jitter));
  if (settings_.attempts < 1) throw InputError(fmt::format("{}: attempts = {} is invalid (must be >= 1)", ctx, settings_.attempts));
  if (!(settings_.end_time > settings_.start_time))
    throw InputError(fmt::format("{}: end_time = {} must exceed start_time = {}", ctx, settings_.end_time, settings_.start_time));
}

std::size_t ParticleEmitter::emit(World& world, double dt) {
  if (!std::isfinite(dt) || dt <= 0) throw InputError(fmt::format("emitter: dt = {} is invalid (must be > 0)", dt));
  if (settings_.material >= world.materials.size())
    throw InputError(fmt::format("emitter: material = {} does not exist ({} materials defined)", settings_.material,
                                 world.materials.size()));
  // The part of [time, time + dt) inside the emission window.
  const double t0 = std::max(world.time, settings_.start_time), t1 = std::min(world.time + dt, settings_.end_time);
  if (t1 <= t0) return 0;
  due_ += settings_.rate * (t1 - t0);
  const double whole = std::floor(due_);
  due_ -= whole;
  const std::size_t n = std::size_t(whole);
  if (n == 0) return 0;

  OccupancyGrid grid = neighbours_in(world, settings_.region, settings_.radii.largest());
  const Region region(settings_.region);
  const double j = settings_.velocity_jitter;
  std::size_t added = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double r = settings_.radii.sample(rng_);
    bool placed = false;
    for (int attempt = 0; attempt < settings_.attempts && !placed; ++attempt) {
      const Vec3 c = sample_center(region, r, rng_);
      if (grid.overlaps(c, r)) continue;
      Vec3 v = settings_.velocity;
      if (j > 0)
        for (int d = 0; d < 3; ++d) v[d] += j * (2 * rng_.uniform() - 1);
      grid.insert(c, r);
      world.add_sphere(c, r, settings_.material, v);
      placed = true;
    }
    if (placed) ++added;
    else ++failed_;
  }
  inserted_ += added;
  return added;
}

std::string ParticleEmitter::save_state() const {
  std::ostringstream out;
  out << rng_.engine() << '\n' << fmt::format("{:a}", due_) << ' ' << inserted_ << ' ' << failed_ << '\n';
  return out.str();
}

void ParticleEmitter::restore_state(const std::string& state) {
  std::istringstream in(state);
  std::mt19937_64 engine;
  std::string due_text;
  std::size_t inserted = 0, failed = 0;
  in >> engine >> due_text >> inserted >> failed;
  if (!in) throw InputError("emitter: saved state is malformed");
  rng_.engine() = engine;
  due_ = std::strtod(due_text.c_str(), nullptr);  // hex float: exact
  inserted_ = inserted;
  failed_ = failed;
}

}  // namespace grainlab::sources
