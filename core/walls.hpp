#pragma once
// Kinematic geometry: walls that move by prescription (never by contact forces). Each shape reports
// the contacts a sphere makes with it; the wall's motion gives the surface velocity at a contact point.
// Contact forces on walls are summed per wall each step (wall load, pressure measurements).
// The shapes, their features and models: core/geometry/*.hpp and docs/geometry.md.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/geometry/box.hpp"
#include "core/geometry/cylinder.hpp"
#include "core/geometry/drum.hpp"
#include "core/geometry/hit.hpp"
#include "core/geometry/plane.hpp"
#include "core/math.hpp"

namespace grainlab {

using WallShape = std::variant<PlaneShape, RectangleShape, BoxShape, CylinderShape, DrumShape>;

struct Wall {
  std::string name;
  WallShape shape;
  std::uint16_t material = 0;
  Vec3 velocity = Vec3::Zero();          ///< translational velocity of the whole wall (of rotation_center), m/s
  Vec3 angular_velocity = Vec3::Zero();  ///< rotation about `rotation_center`, rad/s (drums)
  Vec3 rotation_center = Vec3::Zero();   ///< moves with `velocity` (advance() updates it)
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
/// of touching (overlap >= -margin). The shape is taken at its current position. Thread-safe.
void collide_sphere(const WallShape& shape, const Vec3& c, double r, double margin, std::vector<WallHit>& hits);

/// Moves the wall rigidly over dt: rotation_center advances by velocity dt and the shape turns by
/// angular_velocity dt about it. Exact (not a first-order step) for constant velocities.
void advance(Wall& wall, double dt);

/// Throws InputError naming the wall and the parameter when the wall is ill-defined.
void validate(const Wall& wall);

}  // namespace grainlab
