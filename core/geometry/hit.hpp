#pragma once
// Shared vocabulary of the kinematic shapes: the contact a sphere makes with a wall feature (WallHit)
// and the rigid motion a wall performs over one step (RigidMotion). Header-only, no state.
#include <cstdint>
#include <vector>

#include "core/math.hpp"

namespace grainlab {

/// One touching point between a sphere and a wall feature.
struct WallHit {
  Vec3 normal;            ///< unit, from the wall towards the sphere centre
  Vec3 point;             ///< contact point on the wall surface
  double overlap;         ///< >= 0 when touching
  std::uint16_t feature;  ///< which face/tooth/bump of the wall (part of the contact key)
};

/// Appends a hit when the sphere is within `margin` of touching (overlap >= -margin).
inline void emit_hit(std::vector<WallHit>& hits, const Vec3& normal, const Vec3& point, double overlap,
                     std::uint16_t feature, double margin) {
  if (overlap >= -margin) hits.push_back({normal, point, overlap, feature});
}

/// Rigid motion of a wall over one step: the rotation centre moves from `from` to `to` and the body
/// turns by `rotation` about it, so a material point x goes to to + rotation (x - from). This is exact
/// for constant translational velocity v (to = from + v dt) and constant angular velocity w
/// (rotation = angle |w| dt about w / |w|), for any dt.
struct RigidMotion {
  Vec3 from = Vec3::Zero();
  Vec3 to = Vec3::Zero();
  Quat rotation = Quat::Identity();
  bool rotates = false;
  Vec3 rotation_vector = Vec3::Zero();  ///< angular velocity x dt (angle times unit axis), rad


  Vec3 point(const Vec3& x) const { return rotates ? Vec3(to + rotation * (x - from)) : Vec3(x + (to - from)); }
  Vec3 direction(const Vec3& d) const { return rotates ? Vec3((rotation * d).normalized()) : d; }
};

}  // namespace grainlab
