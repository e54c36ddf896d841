#include "core/geometry/box.hpp"

#include <cmath>

#include "core/geometry/validate_util.hpp"

namespace grainlab {

using namespace geometry_detail;

void collide(const BoxShape& s, const Vec3& c, double r, double margin, std::vector<WallHit>& hits) {
  const Mat3 axes = s.orientation.toRotationMatrix();  // columns: local axes in world frame
  const Vec3 x = axes.transpose() * (c - s.center);     // centre in local coordinates
  const Vec3& e = s.half_extents;
  for (int k = 0; k < 3; ++k) {
    for (int side = 0; side < 2; ++side) {
      const int face = 2 * k + side;
      if (s.is_open(face)) continue;
      const double sign = side ? 1.0 : -1.0;
      // Closest point of the face rectangle in local coordinates; note whether it was clamped across
      // a closed neighbouring face (then the centre is outside the box and this face does not act).
      Vec3 q = x;
      q[k] = sign * e[k];
      bool clamped = false, escaped = false;
      for (int j = 0; j < 3; ++j) {
        if (j == k) continue;
        if (std::abs(x[j]) > e[j]) {
          const int neighbour = 2 * j + (x[j] > 0);
          if (!s.is_open(neighbour)) escaped = true;
          q[j] = x[j] > 0 ? e[j] : -e[j];
          clamped = true;
        }
      }
      if (escaped) continue;
      const Vec3 inward_local = -sign * Vec3::Unit(k);
      if (!clamped) {
        const double distance = e[k] - sign * x[k];  // >= 0 inside the box
        emit_hit(hits, axes * inward_local, s.center + axes * q, r - distance, std::uint16_t(face), margin);
      } else {
        const Vec3 d = x - q;
        const double dist = d.norm();
        if (dist > r + margin) continue;
        const Vec3 n_local = dist > 0 ? Vec3(d / dist) : inward_local;
        emit_hit(hits, axes * n_local, s.center + axes * q, r - dist, std::uint16_t(face), margin);
      }
    }
  }
}

void move(BoxShape& s, const RigidMotion& m) {
  s.center = m.point(s.center);
  if (m.rotates) s.orientation = (m.rotation * s.orientation).normalized();
}

void validate(const BoxShape& s, const std::string& wall) {
  require_finite(s.center, wall, "box center");
  for (int k = 0; k < 3; ++k)
    require_positive_finite(s.half_extents[k], wall, fmt::format("box half_extents[{}]", k), "m");
  if (!s.orientation.coeffs().allFinite() || std::abs(s.orientation.norm() - 1.0) > 1e-9)
    fail(wall, "box orientation", "must be a unit quaternion");
  if (s.open_faces >= 64) fail(wall, "box open_faces", "has bits beyond the six faces");
}

}  // namespace grainlab
