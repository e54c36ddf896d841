#pragma once
// Kinematic geometry: walls that move by prescription (never by contact forces). Each shape reports
// the contacts a sphere makes with it; the wall's motion gives the surface velocity at a contact point.
// Contact forces on walls are summed per wall each step (wall load, pressure measurements).
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/math.hpp"

namespace grainlab {

/// Infinite plane; particles live on the side the normal points to.
struct PlaneShape {
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();  ///< unit length
};

using WallShape = std::variant<PlaneShape>;

/// One touching point between a sphere and a wall feature.
struct WallHit {
  Vec3 normal;         ///< unit, from the wall towards the sphere centre
  Vec3 point;          ///< contact point on the wall surface
  double overlap;      ///< >= 0 when touching
  std::uint16_t feature;  ///< which face/tooth/bump of the wall (part of the contact key)
};

struct Wall {
  std::string name;
  WallShape shape;
  std::uint16_t material = 0;
  Vec3 velocity = Vec3::Zero();          ///< translational velocity of the whole wall, m/s
  Vec3 angular_velocity = Vec3::Zero();  ///< rotation about `rotation_center`, rad/s (drums)
  Vec3 rotation_center = Vec3::Zero();
  Vec3 surface_velocity = Vec3::Zero();  ///< extra tangential velocity of the surface (conveyor belts), m/s
  // Filled by the force stage each step (sum over this wall's contacts, in contact order):
  Vec3 force = Vec3::Zero();   ///< force the particles exert on the wall, N
  Vec3 torque = Vec3::Zero();  ///< about rotation_center, N m

  /// Velocity of the wall material at point p (translation + rotation + conveyor surface motion).
  Vec3 velocity_at(const Vec3& p) const {
    return velocity + angular_velocity.cross(p - rotation_center) + surface_velocity;
  }
};

/// Appends to `hits` every contact of a sphere (centre c, radius r) with the shape, within `margin`
/// of touching (overlap >= -margin). The shape is taken at its current position.
void collide_sphere(const WallShape& shape, const Vec3& c, double r, double margin, std::vector<WallHit>& hits);

/// Moves the wall's shape by its velocity and rotation over dt.
void advance(Wall& wall, double dt);

}  // namespace grainlab
