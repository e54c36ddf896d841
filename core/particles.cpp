#include "core/particles.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab {

std::size_t ParticleStore::add(const Vec3& x, double r, double density, std::uint16_t material_index,
                               const Vec3& v, const Vec3& w) {
  if (!std::isfinite(r) || r <= 0) throw InputError(fmt::format("particle radius = {} is invalid (must be > 0)", r));
  if (!std::isfinite(density) || density <= 0)
    throw InputError(fmt::format("particle density = {} is invalid (must be > 0)", density));
  if (!x.allFinite()) throw InputError("particle position is not finite");
  if (!v.allFinite() || !w.allFinite()) throw InputError("particle velocity is not finite");
  const double m = density * 4.0 / 3.0 * pi * r * r * r;
  const double inertia_value = 0.4 * m * r * r;
  id.push_back(next_id++);
  position.push_back(x);
  velocity.push_back(v);
  orientation.push_back(Quat::Identity());
  angular_velocity.push_back(w);
  force.push_back(Vec3::Zero());
  torque.push_back(Vec3::Zero());
  radius.push_back(r);
  mass.push_back(m);
  inv_mass.push_back(1.0 / m);
  inertia.push_back(inertia_value);
  inv_inertia.push_back(1.0 / inertia_value);
  material.push_back(material_index);
  flags.push_back(particle_free);
  body.push_back(-1);
  return size() - 1;
}

void ParticleStore::fix(std::size_t i) {
  flags[i] |= particle_fixed;
  inv_mass[i] = 0;
  inv_inertia[i] = 0;
  velocity[i].setZero();
  angular_velocity[i].setZero();
}

template <class T>
static void compact_vector(std::vector<T>& v, const std::vector<char>& keep) {
  std::size_t out = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (keep[i]) v[out++] = v[i];
  v.resize(out);
}

void ParticleStore::compact(const std::vector<char>& keep) {
  compact_vector(id, keep);
  compact_vector(position, keep);
  compact_vector(velocity, keep);
  compact_vector(orientation, keep);
  compact_vector(angular_velocity, keep);
  compact_vector(force, keep);
  compact_vector(torque, keep);
  compact_vector(radius, keep);
  compact_vector(mass, keep);
  compact_vector(inv_mass, keep);
  compact_vector(inertia, keep);
  compact_vector(inv_inertia, keep);
  compact_vector(material, keep);
  compact_vector(flags, keep);
  compact_vector(body, keep);
}

void ParticleStore::reserve(std::size_t n) {
  id.reserve(n); position.reserve(n); velocity.reserve(n); orientation.reserve(n);
  angular_velocity.reserve(n); force.reserve(n); torque.reserve(n); radius.reserve(n);
  mass.reserve(n); inv_mass.reserve(n); inertia.reserve(n); inv_inertia.reserve(n);
  material.reserve(n); flags.reserve(n); body.reserve(n);
}

void ParticleStore::clear_forces() {
  for (auto& f : force) f.setZero();
  for (auto& t : torque) t.setZero();
}

double ParticleStore::total_mass() const {
  double m = 0;
  for (std::size_t i = 0; i < size(); ++i) m += mass[i];
  return m;
}

Vec3 ParticleStore::linear_momentum() const {
  Vec3 p = Vec3::Zero();
  for (std::size_t i = 0; i < size(); ++i) p += mass[i] * velocity[i];
  return p;
}

double ParticleStore::kinetic_energy() const {
  double e = 0;
  for (std::size_t i = 0; i < size(); ++i)
    e += 0.5 * mass[i] * velocity[i].squaredNorm() + 0.5 * inertia[i] * angular_velocity[i].squaredNorm();
  return e;
}

}  // namespace grainlab
