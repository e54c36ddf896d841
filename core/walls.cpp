#include "core/walls.hpp"

#include <algorithm>
#include <cmath>

#include "core/geometry/validate_util.hpp"

namespace grainlab {

void collide_sphere(const WallShape& shape, const Vec3& c, double r, double margin, std::vector<WallHit>& hits) {
  std::visit([&](const auto& s) { collide(s, c, r, margin, hits); }, shape);
}

void advance(Wall& wall, double dt) {
  RigidMotion m;
  m.from = wall.rotation_center;
  m.to = wall.rotation_center + wall.velocity * dt;
  m.rotation_vector = wall.angular_velocity * dt;
  const double angle = m.rotation_vector.norm();
  if (angle > 0) {
    m.rotates = true;
    m.rotation = Quat(Eigen::AngleAxisd(angle, m.rotation_vector / angle));
  }
  std::visit([&](auto& s) { move(s, m); }, wall.shape);
  wall.rotation_center = m.to;
}

void validate(const Wall& wall) {
  using namespace geometry_detail;
  require_finite(wall.velocity, wall.name, "velocity");
  require_finite(wall.angular_velocity, wall.name, "angular_velocity");
  require_finite(wall.rotation_center, wall.name, "rotation_center");
  require_finite(wall.surface_velocity, wall.name, "surface_velocity");
  std::visit([&](const auto& s) { validate(s, wall.name); }, wall.shape);
  // A conveyor's surface velocity must lie in its plane.
  const Vec3* normal = nullptr;
  if (const auto* p = std::get_if<PlaneShape>(&wall.shape)) normal = &p->normal;
  if (const auto* p = std::get_if<RectangleShape>(&wall.shape)) normal = &p->normal;
  if (normal && std::abs(wall.surface_velocity.dot(*normal)) > 1e-9 * std::max(1.0, wall.surface_velocity.norm()))
    fail(wall.name, "surface_velocity", "must be tangential to the plane (no component along the normal)");
}

}  // namespace grainlab
