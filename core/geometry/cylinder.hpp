#pragma once
// Circular cylinder of radius `radius` around the axis through `center` along `axis`, extending
// length/2 to either side of `center` (length may be +infinity: no ends).
// Features: 0 the curved shell (and its rim edges), 1 the end at -axis, 2 the end at +axis.
//
// side = inside (a container): particles live inside.
//  - shell, centre within the length: half-space contact, normal radially inward, overlap =
//    r - (R - rho) (rho = distance of the centre from the axis);
//  - shell, centre beyond an OPEN end: closest point on the rim circle, normal from it to the centre
//    (continuous as a sphere leaves over the rim); beyond a capped end: no shell contact;
//  - cap (cap_lo / cap_hi): flat disc, half-space contact with normal along the axis, inward, when the
//    centre projects onto the disc (rho <= R).
// polygon_faces = N >= 3 (side = inside only): the shell is a regular N-sided prism instead of a circle,
//  as the paper's cylinder containers ("modeled by 20 rectangular faces", 000 line 598). The faces are
//  tangent to the circle of `radius` (apothem = radius), face k's outward normal at angle k 2pi/N from
//  `reference` about the axis. Face k is feature 3 + k: half-space contact while the centre's foot on
//  the face plane lies within the face; a foot beyond the face's side edge is a concave corner (the
//  neighbouring face has the contact). The caps remain discs of `radius`; a centre beyond an open end
//  gets no contact from the faces (their rims are not modelled).
// side = outside (a solid rod/pillar with flat ends; caps flags ignored): particles live outside.
//  Exact closest point of the solid cylinder: the shell (normal radially outward), an end disc (normal
//  along the axis) or the rim circle between them (feature 0). A centre inside the solid is pushed
//  out through the nearest surface (least penetration).
// collide(): pure, thread-safe.
#include <string>
#include <vector>

#include "core/geometry/hit.hpp"

namespace grainlab {

struct CylinderShape {
  enum class Side { inside, outside };
  Vec3 center = Vec3::Zero();
  Vec3 axis = Vec3::UnitZ();  ///< unit
  double radius = 0.5;        ///< m
  double length = 1.0;        ///< m, may be +infinity
  bool cap_lo = false;        ///< flat end at center - axis length/2 (inside side only)
  bool cap_hi = false;        ///< flat end at center + axis length/2 (inside side only)
  Side side = Side::inside;
  int polygon_faces = 0;           ///< 0: circular shell; N >= 3: regular N-gon prism (inside only)
  Vec3 reference = Vec3::UnitX();  ///< unit, orthogonal to axis: normal of polygon face 0 (polygon only)
};

/// Cylinder coordinates of a point: axial z, distance rho from the axis and the radial unit vector.
struct AxialCoordinates {
  double z;
  double rho;
  Vec3 radial;  ///< unit, orthogonal to the axis (an arbitrary one on the axis)
};
AxialCoordinates axial_coordinates(const Vec3& center, const Vec3& axis, const Vec3& x);

void collide(const CylinderShape& s, const Vec3& c, double r, double margin, std::vector<WallHit>& hits);
/// The end caps and open-end rims of an inside cylinder; `shell_interior` is set to whether the centre
/// lies within the length (where the caller computes the shell contact itself; used by the drum).
void collide_ends(const CylinderShape& s, const AxialCoordinates& a, const Vec3& c, double r, double margin,
                  std::vector<WallHit>& hits, bool& shell_interior);
void move(CylinderShape& s, const RigidMotion& m);
void validate(const CylinderShape& s, const std::string& wall);

}  // namespace grainlab
