#include "core/run_guards.hpp"

namespace grainlab::guards {

Travel max_travel_per_step(const ParticleStore& p, double dt) {
  Travel t;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p.inv_mass[i] == 0 || !(p.radius[i] > 0)) continue;
    const double ratio = p.velocity[i].norm() * dt / p.radius[i];
    if (ratio > t.ratio) t = {ratio, long(i)};
  }
  return t;
}

}  // namespace grainlab::guards
