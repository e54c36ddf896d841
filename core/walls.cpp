#include "core/walls.hpp"

namespace grainlab {

namespace {

void collide(const PlaneShape& s, const Vec3& c, double r, double margin, std::vector<WallHit>& hits) {
  const double distance = (c - s.point).dot(s.normal);
  const double overlap = r - distance;
  if (overlap >= -margin) hits.push_back({s.normal, c - distance * s.normal, overlap, 0});
}

void move(PlaneShape& s, const Wall& w, double dt) {
  s.point += w.velocity * dt;
  if (!w.angular_velocity.isZero()) {
    const double angle = w.angular_velocity.norm() * dt;
    const Eigen::AngleAxisd rot(angle, w.angular_velocity.normalized());
    s.point = w.rotation_center + rot * (s.point - w.rotation_center);
    s.normal = (rot * s.normal).normalized();
  }
}

}  // namespace

void collide_sphere(const WallShape& shape, const Vec3& c, double r, double margin, std::vector<WallHit>& hits) {
  std::visit([&](const auto& s) { collide(s, c, r, margin, hits); }, shape);
}

void advance(Wall& wall, double dt) {
  std::visit([&](auto& s) { move(s, wall, dt); }, wall.shape);
}

}  // namespace grainlab
