#pragma once
// Aggregates of adaptive model reduction (Paper V, 000 l.1895-1920; core/ndem/reduction.hpp): rigid bodies
// (core/bodies.hpp) that the reducer forms from particles and splits back. An aggregate is a world.bodies
// entry whose members carry the particle_aggregated flag, so a checkpoint restores aggregates with the
// bodies and the particle flags (no state outside the World). Bodies made otherwise (clumps, dynamic walls)
// are never merged or split.
//
// Threading: serial; O(N) per call at most (one pass over the particles), O(members) per aggregate.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/world.hpp"

namespace grainlab {

/// ParticleStore::flags bit of a member of a model-reduction aggregate (next to particle_fixed = 1).
inline constexpr std::uint8_t particle_aggregated = 2;

/// True when body `body` is an aggregate of model reduction.
bool is_aggregate(const World& world, std::size_t body);

/// Forms an aggregate from free dynamic particles with form_body (mass, centre of mass, inertia with each
/// member's own inertia, momentum with each member's spin: P5-C12, ledger P3) and flags the members.
/// drive_members = true projects the members' velocities on the rigid motion (a merge); false leaves their
/// state bit for bit (a split re-forming the rest of an aggregate). Invalidates the contact detector as
/// form_body does (NdemReducer keeps the candidates across its stages). Returns the body index.
std::size_t form_aggregate(World& world, const std::vector<std::size_t>& particles, bool drive_members);

/// Removes the aggregates flagged in `remove` (one entry per body; only aggregates may be flagged): their
/// members become free spheres with position, velocity, orientation and spin untouched (bit for bit:
/// members already move with their body, drive_members ran at the end of the last step), the remaining
/// bodies keep their order and their members' ParticleStore::body is renumbered. One pass over the particles.
void release_aggregates(World& world, const std::vector<char>& remove);

/// Members (particle indices) of every body, in member order.
std::vector<std::vector<std::size_t>> body_members(const World& world);

/// Relative motion at a contact for the per-particle velocities v, w (index = particle; a wall side moves
/// with the wall): normal = n . (u_a - u_b) (> 0 separating, < 0 incident; n from b to a), tangential = the
/// slip velocity in the tangent plane, rolling = w_a - w_b (rolling and twisting; the wall's spin on b).
/// Lever arms as the NDEM rows: p - x_a and (r_b - delta/2) n. These are G_n v, G_t v and G_r v of Eq. 26-34.
struct ContactMotion {
  double normal = 0;
  Vec3 tangential = Vec3::Zero();
  Vec3 rolling = Vec3::Zero();
};
ContactMotion contact_motion(const World& world, const Contact& c, const std::vector<Vec3>& v, const std::vector<Vec3>& w);

/// True when the contact's motion lies inside the thresholds (Eq. 26-28 and 29-34 as the complement):
/// -normal <= incident_normal, normal <= separating_normal, |tangential| <= tangential, |rolling| <= rolling.
/// Norms of the tangential and rolling vectors (isotropic bounds in the tangent plane, docs/reduction.md).
struct ReductionThresholds;
bool within(const ContactMotion& m, const ReductionThresholds& t);

}  // namespace grainlab
