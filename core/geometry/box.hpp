#pragma once
// Box container: particles inside a rectangular box (axis-aligned or rotated by `orientation`).
// Features: the six faces, id = 2 k + (side > 0) for the local axis k: 0 -x, 1 +x, 2 -y, 3 +y, 4 -z, 5 +z.
// Any face can be open (bit `1 << id` of open_faces), e.g. an open top is open_faces = 1 << 5.
// Model per closed face:
//  - centre over the face (its other two local coordinates within the box): half-space contact with
//    the inward face normal, overlap = r - distance (a centre behind the face has overlap > r);
//  - centre beyond an edge shared with an OPEN face (a sphere poking over the rim of an open top):
//    closest point on the face rectangle, normal from that edge point to the centre (continuous as
//    the sphere rolls over the rim);
//  - centre beyond an edge shared with a closed face: the particle is outside the box (escaped); no
//    contact from this face.
// A sphere in a corner touches up to three faces: three contacts with separate keys.
// collide(): pure, thread-safe.
#include <cstdint>
#include <string>
#include <vector>

#include "core/geometry/hit.hpp"

namespace grainlab {

struct BoxShape {
  Vec3 center = Vec3::Zero();
  Vec3 half_extents = Vec3(0.5, 0.5, 0.5);  ///< half side lengths along the local axes, m
  Quat orientation = Quat::Identity();      ///< local -> world rotation (unit quaternion)
  std::uint8_t open_faces = 0;              ///< bit (2 k + (side > 0)) set: that face is absent

  static constexpr std::uint8_t open_top = 1u << 5;  ///< the +z face
  bool is_open(int face) const { return (open_faces >> face) & 1u; }
};

void collide(const BoxShape& s, const Vec3& c, double r, double margin, std::vector<WallHit>& hits);
void move(BoxShape& s, const RigidMotion& m);
void validate(const BoxShape& s, const std::string& wall);

}  // namespace grainlab
