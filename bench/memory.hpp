#pragma once
// Bytes held by the world's containers (capacities), for the benchmarks' memory counters.
#include <cstddef>

#include "core/buffer_growth.hpp"
#include "core/world.hpp"

namespace grainlab::bench {

inline std::size_t bytes(const auto& v) { return capacity_bytes(v); }

inline std::size_t particle_bytes(const ParticleStore& p) {
  return bytes(p.id) + bytes(p.position) + bytes(p.velocity) + bytes(p.orientation) + bytes(p.angular_velocity) +
         bytes(p.force) + bytes(p.torque) + bytes(p.radius) + bytes(p.mass) + bytes(p.inv_mass) + bytes(p.inertia) +
         bytes(p.inv_inertia) + bytes(p.material) + bytes(p.flags) + bytes(p.body);
}

/// The contact list and the model history columns kept beside it.
inline std::size_t contact_bytes(World& world) {
  return bytes(world.contacts()) + world.model_history().memory_bytes();
}

}  // namespace grainlab::bench
