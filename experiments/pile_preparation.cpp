#include "experiments/pile_preparation.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/sources/emitter.hpp"

namespace grainlab {

World pile_world(const Material& m, double gravity) {
  World w;
  w.gravity.g = Vec3(0, 0, -gravity);
  w.add_material(m);
  Wall ground;
  ground.name = "ground";
  ground.shape = PlaneShape{};
  w.add_wall(ground);
  return w;
}

double max_particle_speed(const World& w) {
  double v = 0;
  for (const Vec3& u : w.particles.velocity) v = std::max(v, u.norm());
  return v;
}

double pile_top(const World& w) {
  double top = 0;
  for (std::size_t i = 0; i < w.particles.size(); ++i)
    top = std::max(top, w.particles.position[i].z() + w.particles.radius[i]);
  return top;
}

PileStats prepare_resting_pile(World& w, const PileSource& src, const PileRestRule& rest, NdemStepper& ndem,
                               const std::function<void(double)>& progress) {
  auto fail = [](const char* key, double value, const char* rule) {
    throw InputError(fmt::format("pile preparation: {} = {} is invalid ({})", key, value, rule));
  };
  const double d = src.diameter;
  const double dt = ndem.time_step();
  if (src.count < 1) fail("count", src.count, "must be >= 1");
  if (!(src.width >= 1)) fail("source_width", src.width, "must be >= 1 diameter");
  if (!(src.height >= 1)) fail("source_height", src.height, "must be >= 1 diameter above the ground");
  if (!(src.rate > 0 && src.rate * dt <= 1 + 1e-9))
    fail("emission_rate", src.rate, "must be > 0 and at most one particle per step, so that exactly count are emitted");
  if (!(rest.rest_speed > 0)) fail("rest_speed", rest.rest_speed, "must be > 0");
  if (!(rest.settle_min >= 0 && rest.settle_max >= rest.settle_min))
    fail("settle_max_time", rest.settle_max, "must be >= settle_min_time >= 0");

  sources::EmitterSettings e;
  e.rate = src.rate;
  // Centres at height h +- d/4 over the square patch (a sphere lies inside the box, so the box is d/2 larger).
  const double half = 0.5 * src.width * d, h = src.height * d;
  e.region.lo = Vec3(-half, -half, h - 0.75 * d);
  e.region.hi = Vec3(half, half, h + 0.75 * d);
  e.radii = sources::RadiusDistribution::mono(0.5 * d);
  e.seed = src.seed;
  sources::ParticleEmitter emitter(e);

  // Emission: a particle that finds no free spot (the patch is crowded, or the pile reached it) is not
  // retried, so emission goes on until count are in; a pile that has buried the source stops it.
  const double give_up = w.time + 4.0 * src.count / src.rate + 1.0;
  const double expected = src.count / src.rate + rest.settle_max;
  while (w.particles.size() < std::size_t(src.count)) {
    if (w.time > give_up)
      throw InputError(fmt::format("pile preparation: only {} of count = {} particles found room in the source patch "
                                   "after {:.3g} s (the pile has reached the source at source_height = {} d?)",
                                   w.particles.size(), src.count, w.time, src.height));
    emitter.emit(w, dt);
    ndem.step(w);
    if (progress && w.step % 50 == 0) progress(std::min(1.0, w.time / expected));
  }
  PileStats s;
  s.emission_end = w.time;
  const int min_steps = int(std::ceil(rest.settle_min / dt - 1e-9));
  const int max_steps = int(std::ceil(rest.settle_max / dt - 1e-9));
  for (int k = 0; k < max_steps; ++k) {
    ndem.step(w);
    s.max_speed = max_particle_speed(w);
    if (k + 1 >= min_steps && s.max_speed < rest.rest_speed) {
      s.at_rest = true;
      break;
    }
    if (progress && w.step % 50 == 0) progress(std::min(1.0, w.time / expected));
  }
  s.particles = w.particles.size();
  s.settle_time = w.time - s.emission_end;
  s.max_speed = max_particle_speed(w);
  s.height = pile_top(w);
  return s;
}

}  // namespace grainlab
