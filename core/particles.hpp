#pragma once
// Spheres in structure-of-arrays form. Index i addresses slot i of every array; id[i] is the stable
// global id (never reused), which keys contacts and survives reordering, removal and checkpoints.
#include <cstdint>
#include <vector>

#include "core/math.hpp"

namespace grainlab {

enum ParticleFlags : std::uint8_t {
  particle_free = 0,
  particle_fixed = 1,  ///< does not move (infinite mass for contacts)
};

struct ParticleStore {
  std::vector<std::uint32_t> id;
  std::vector<Vec3> position;
  std::vector<Vec3> velocity;
  std::vector<Quat> orientation;
  std::vector<Vec3> angular_velocity;
  std::vector<Vec3> force;   ///< accumulated each step (contacts + external), N
  std::vector<Vec3> torque;  ///< accumulated each step, N m
  std::vector<double> radius;
  std::vector<double> mass;
  std::vector<double> inv_mass;     ///< 0 for fixed particles
  std::vector<double> inertia;      ///< 2/5 m r^2 for a solid sphere
  std::vector<double> inv_inertia;  ///< 0 for fixed particles
  std::vector<std::uint16_t> material;
  std::vector<std::uint8_t> flags;
  std::vector<std::int32_t> body;   ///< index into World::bodies, -1 = free sphere (core/bodies.hpp)
  std::uint32_t next_id = 0;

  std::size_t size() const { return id.size(); }
  bool empty() const { return id.empty(); }

  /// Appends a solid sphere of the given material density; returns its index. Throws InputError on a
  /// non-positive or non-finite radius/density or a non-finite position.
  std::size_t add(const Vec3& x, double radius, double density, std::uint16_t material_index,
                  const Vec3& v = Vec3::Zero(), const Vec3& w = Vec3::Zero());

  /// Makes particle i immovable (it still collides).
  void fix(std::size_t i);

  /// Removes every particle whose index satisfies keep[i] == false, preserving the order of the rest.
  void compact(const std::vector<char>& keep);

  void reserve(std::size_t n);
  void clear_forces();

  double total_mass() const;
  Vec3 linear_momentum() const;
  double kinetic_energy() const;  ///< translational + rotational, J
};

}  // namespace grainlab
