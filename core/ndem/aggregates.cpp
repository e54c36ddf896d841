// Aggregates of model reduction: forming, releasing, contact motion. See aggregates.hpp.
#include "core/ndem/aggregates.hpp"

#include <fmt/format.h>

#include "core/bodies.hpp"
#include "core/error.hpp"
#include "core/ndem/reduction_settings.hpp"

namespace grainlab {

bool is_aggregate(const World& world, std::size_t body) {
  const RigidBody& b = world.bodies[body];
  if (b.members.empty() || !b.walls.empty()) return false;
  const auto i = std::size_t(b.members.front().index);
  return i < world.particles.size() && (world.particles.flags[i] & particle_aggregated);
}

std::size_t form_aggregate(World& world, const std::vector<std::size_t>& particles, bool drive_members) {
  ParticleStore& P = world.particles;
  // form_body drives the members (x_i = X + r_i, v_i = v + w x r_i: rounding-level changes); a split must
  // leave them bit for bit, so their state is put back (they already move with the same rigid motion).
  struct Saved {
    Vec3 x, v, w;
    Quat q;
  };
  std::vector<Saved> saved;
  if (!drive_members)
    for (std::size_t i : particles) saved.push_back({P.position[i], P.velocity[i], P.angular_velocity[i], P.orientation[i]});
  const std::size_t k = form_body(world, particles);
  for (std::size_t j = 0; j < saved.size(); ++j) {
    const std::size_t i = particles[j];
    P.position[i] = saved[j].x;
    P.velocity[i] = saved[j].v;
    P.angular_velocity[i] = saved[j].w;
    P.orientation[i] = saved[j].q;
  }
  for (std::size_t i : particles) P.flags[i] |= particle_aggregated;
  return k;
}

void release_aggregates(World& world, const std::vector<char>& remove) {
  if (remove.size() != world.bodies.size())
    throw InputError(fmt::format("release_aggregates: {} flags for {} bodies", remove.size(), world.bodies.size()));
  ParticleStore& P = world.particles;
  std::vector<std::int32_t> renumber(world.bodies.size(), -1);
  std::size_t kept = 0;
  for (std::size_t k = 0; k < world.bodies.size(); ++k) {
    if (remove[k] && !is_aggregate(world, k))
      throw InputError(fmt::format("release_aggregates: body {} is not an aggregate of model reduction", k));
    if (!remove[k]) renumber[k] = std::int32_t(kept++);
  }
  if (kept == world.bodies.size()) return;
  for (std::size_t k = 0; k < world.bodies.size(); ++k)
    if (remove[k])
      for (const BodyMember& m : world.bodies[k].members) P.flags[std::size_t(m.index)] &= std::uint8_t(~particle_aggregated);
  for (std::size_t i = 0; i < P.size(); ++i)
    if (P.body[i] >= 0) P.body[i] = renumber[std::size_t(P.body[i])];
  std::size_t out = 0;
  for (std::size_t k = 0; k < world.bodies.size(); ++k)
    if (!remove[k]) {
      if (out != k) world.bodies[out] = std::move(world.bodies[k]);
      ++out;
    }
  world.bodies.resize(kept);
}

std::vector<std::vector<std::size_t>> body_members(const World& world) {
  std::vector<std::vector<std::size_t>> out(world.bodies.size());
  for (std::size_t k = 0; k < world.bodies.size(); ++k)
    for (const BodyMember& m : world.bodies[k].members) out[k].push_back(std::size_t(m.index));
  return out;
}

ContactMotion contact_motion(const World& world, const Contact& c, const std::vector<Vec3>& v, const std::vector<Vec3>& w) {
  const ParticleStore& P = world.particles;
  const std::size_t a = std::size_t(c.a);
  const Vec3 n = c.normal;
  // Pair contacts: p - x_a = -(r_a - delta/2) n, independent of where x_a is now (merge() runs after x moved).
  const Vec3 ra = c.is_wall() ? Vec3(c.point - P.position[a]) : Vec3(-(P.radius[a] - 0.5 * c.overlap) * n);
  Vec3 rel = v[a] + w[a].cross(ra);
  Vec3 spin = w[a];
  if (c.is_wall()) {
    const Wall& W = world.walls[std::size_t(c.wall_index())];
    rel -= W.velocity_at(c.point);
    spin -= W.angular_velocity;
  } else {
    const std::size_t b = std::size_t(c.b);
    rel -= v[b] + w[b].cross((P.radius[b] - 0.5 * c.overlap) * n);
    spin -= w[b];
  }
  ContactMotion m;
  m.normal = n.dot(rel);
  m.tangential = rel - m.normal * n;
  m.rolling = spin;
  return m;
}

bool within(const ContactMotion& m, const ReductionThresholds& t) {
  return -m.normal <= t.incident_normal && m.normal <= t.separating_normal && m.tangential.norm() <= t.tangential &&
         m.rolling.norm() <= t.rolling;
}

}  // namespace grainlab
