#include "core/io/energy_observer.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/hertz.hpp"

namespace grainlab::io {

std::vector<std::string> EnergySample::columns() {
  return {"time",       "step",       "kinetic_translational", "kinetic_rotational", "potential_gravity",
          "elastic_hertz", "momentum_x", "momentum_y",            "momentum_z",         "contacts_touching",
          "overlap_max", "overlap_mean"};
}

std::vector<double> EnergySample::row() const {
  return {time,        double(step), kinetic_translational, kinetic_rotational,        potential_gravity, elastic_hertz,
          momentum.x(), momentum.y(), momentum.z(),          double(contacts_touching), overlap_max,       overlap_mean};
}

double gravitational_energy(const World& world, const Vec3& reference) {
  const ParticleStore& p = world.particles;
  const Vec3 g = world.gravity.at(world.time);
  double e = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p.inv_mass[i] > 0) e -= p.mass[i] * g.dot(p.position[i] - reference);
  return e;
}

EnergySample sample_energy(const World& world, const Vec3& reference) {
  const ParticleStore& p = world.particles;
  EnergySample s;
  s.time = world.time;
  s.step = world.step;
  for (std::size_t i = 0; i < p.size(); ++i) {
    s.kinetic_translational += 0.5 * p.mass[i] * p.velocity[i].squaredNorm();
    s.kinetic_rotational += 0.5 * p.inertia[i] * p.angular_velocity[i].squaredNorm();
    s.momentum += p.mass[i] * p.velocity[i];
  }
  s.potential_gravity = gravitational_energy(world, reference);
  double overlap_sum = 0;
  for (const Contact& c : world.contacts()) {
    if (c.overlap <= 0) continue;
    ++s.contacts_touching;
    overlap_sum += c.overlap;
    s.overlap_max = std::max(s.overlap_max, c.overlap);
    const Material& ma = world.materials[p.material[c.a]];
    const Material& mb = c.is_wall() ? world.materials[world.walls[c.wall_index()].material] : world.materials[p.material[c.b]];
    const double kn = hertz_stiffness(mix(ma, mb).effective_modulus, c.effective_radius);
    s.elastic_hertz += 0.4 * kn * c.overlap * c.overlap * std::sqrt(c.overlap);
  }
  if (s.contacts_touching > 0) s.overlap_mean = overlap_sum / double(s.contacts_touching);
  return s;
}

namespace {
std::uint64_t checked_every(std::uint64_t every) {
  if (every == 0) throw InputError("energy observer: every = 0 is invalid (must be >= 1 step)");
  return every;
}
}  // namespace

EnergyObserver::EnergyObserver(const std::filesystem::path& path, std::uint64_t every, Vec3 reference)
    : every_(checked_every(every)), reference_(reference), csv_(path, EnergySample::columns()) {}

bool EnergyObserver::observe(World& world) {
  if (world.step % every_ != 0) return false;
  world.sync_contacts();
  last_ = sample_energy(world, reference_);
  csv_.row(last_.row());
  return true;
}

}  // namespace grainlab::io
