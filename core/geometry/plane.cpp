#include "core/geometry/plane.hpp"

#include <algorithm>
#include <cmath>

#include "core/geometry/validate_util.hpp"

namespace grainlab {

using namespace geometry_detail;

void collide(const PlaneShape& s, const Vec3& c, double r, double margin, std::vector<WallHit>& hits) {
  const double distance = (c - s.point).dot(s.normal);
  emit_hit(hits, s.normal, c - distance * s.normal, r - distance, 0, margin);
}

void collide(const RectangleShape& s, const Vec3& c, double r, double margin, std::vector<WallHit>& hits) {
  const Vec3 rel = c - s.center;
  const Vec3 v_axis = s.v_axis();
  const double u = std::clamp(rel.dot(s.u_axis), -s.half_u, s.half_u);
  const double v = std::clamp(rel.dot(v_axis), -s.half_v, s.half_v);
  const Vec3 q = s.center + u * s.u_axis + v * v_axis;  // closest point of the plate
  const Vec3 d = c - q;
  const double dist = d.norm();
  if (dist > r + margin) return;
  // Centre exactly in the plate: no direction; take the normal side.
  const Vec3 n = dist > 0 ? Vec3(d / dist) : s.normal;
  emit_hit(hits, n, q, r - dist, 0, margin);
}

void move(PlaneShape& s, const RigidMotion& m) {
  s.point = m.point(s.point);
  s.normal = m.direction(s.normal);
}

void move(RectangleShape& s, const RigidMotion& m) {
  s.center = m.point(s.center);
  s.normal = m.direction(s.normal);
  // Keep u exactly orthogonal to the normal after many small rotations.
  const Vec3 u = m.direction(s.u_axis);
  s.u_axis = (u - u.dot(s.normal) * s.normal).normalized();
}

void validate(const PlaneShape& s, const std::string& wall) {
  require_finite(s.point, wall, "plane point");
  require_unit(s.normal, wall, "plane normal");
}

void validate(const RectangleShape& s, const std::string& wall) {
  require_finite(s.center, wall, "rectangle center");
  require_unit(s.normal, wall, "rectangle normal");
  require_unit(s.u_axis, wall, "rectangle u_axis");
  if (std::abs(s.u_axis.dot(s.normal)) > 1e-9) fail(wall, "rectangle u_axis", "must be orthogonal to the normal");
  require_positive_finite(s.half_u, wall, "rectangle half_u", "m");
  require_positive_finite(s.half_v, wall, "rectangle half_v", "m");
}

}  // namespace grainlab
