#pragma once
// Planar walls.
//  PlaneShape: infinite plane bounding a half-space; particles live on the side the normal points to.
//    Feature 0. Half-space model: a centre behind the plane has overlap r + depth.
//  RectangleShape: finite rectangular plate (conveyor belt, baffle, piston face). Two-sided thin plate:
//    the contact point is the closest point of the rectangle, so a sphere over the face gets the face
//    normal and a sphere beyond an edge or corner gets the normal from that edge/corner point (the
//    normal is continuous as a sphere rolls off the edge). Feature 0.
// collide(): reads the shape, appends hits; pure function, thread-safe.
#include <string>
#include <vector>

#include "core/geometry/hit.hpp"

namespace grainlab {

struct PlaneShape {
  Vec3 point = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();  ///< unit length
};

struct RectangleShape {
  Vec3 center = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();  ///< unit plate normal (the plate is two-sided)
  Vec3 u_axis = Vec3::UnitX();  ///< unit, in the plate, orthogonal to normal; v_axis = normal x u_axis
  double half_u = 0.5;          ///< half side along u_axis, m
  double half_v = 0.5;          ///< half side along v_axis, m
  Vec3 v_axis() const { return normal.cross(u_axis); }
};

void collide(const PlaneShape& s, const Vec3& c, double r, double margin, std::vector<WallHit>& hits);
void collide(const RectangleShape& s, const Vec3& c, double r, double margin, std::vector<WallHit>& hits);
void move(PlaneShape& s, const RigidMotion& m);
void move(RectangleShape& s, const RigidMotion& m);
/// Throws InputError naming the wall and the parameter.
void validate(const PlaneShape& s, const std::string& wall);
void validate(const RectangleShape& s, const std::string& wall);

}  // namespace grainlab
