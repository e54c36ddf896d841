#pragma once
// Straight slots cut through a drum's cylindrical shell (an outlet with gaps, Paper II 000 l.899-901).
// Described in the shell unrolled in the drum's turning frame: arc coordinate u = R theta (theta the
// frame angle, core/geometry/drum.hpp) and axial coordinate z (relative to the drum centre). Slot k
// starts on the line z = z_start at u = u_start and runs along the unit direction
// (sin bisector, cos bisector) in (u, z) for `length` (measured along the bisector); at distance s
// along it its width is base_width + widening s (the two edges are straight lines).
// Contacts of a sphere (centre c, radius r, distance rho from the axis, rho < R):
//  - centre's projection outside every slot: the shell contact as for an unslotted drum (feature 0);
//  - projection inside slot k: no shell contact; each edge of the slot within reach gives a contact with
//    its closest point (the edge point at the centre's s, a line on the shell; feature 3 + 2k for the
//    edge at -t, 4 + 2k for +t), so a sphere wider than the gap rests on both edges and one narrower
//    falls through;
//  - rho >= R (the centre is outside the shell: a particle leaving through a slot): no contact.
// The edge point is taken at the centre's s (exact for parallel edges; for widening edges the error is
// of order widening^2, 1e-4 of the overlap at the paper's largest angle 0.6 deg).
#include <cstdint>
#include <string>
#include <vector>

#include "core/geometry/hit.hpp"

namespace grainlab {

struct ShellSlot {
  double u_start = 0;     ///< m, arc coordinate of the slot's bisector at z_start
  double z_start = 0;     ///< m, axial coordinate where the slot starts
  double bisector = 0;    ///< rad, angle of the bisector from the axial direction (towards +u)
  double base_width = 0;  ///< m, width at z_start
  double widening = 0;    ///< d(width)/ds, dimensionless (2 tan(half-angle) for symmetric edges)
  double length = 0;      ///< m, along the bisector
};

/// Where a shell point (u, z) lies relative to slot `s`: along-bisector s, across t, and whether inside.
struct SlotCoordinates {
  double s = 0, t = 0, half_width = 0;
  bool inside = false;
};
SlotCoordinates slot_coordinates(const ShellSlot& slot, double u, double z, double circumference);

/// Shell contacts of a slotted drum shell of radius R (see the file comment). `e1`, `e2`: world unit
/// vectors of frame angle 0 and 90 deg; `axis_point`: the drum centre; `theta`, `z`, `rho`: the centre's
/// frame angle, axial coordinate and distance from the axis; `radial`: its outward radial unit vector.
void collide_slotted_shell(const std::vector<ShellSlot>& slots, double R, const Vec3& axis_point, const Vec3& axis,
                           const Vec3& e1, const Vec3& e2, double theta, double z, double rho, const Vec3& radial,
                           const Vec3& c, double r, double margin, std::vector<WallHit>& hits);

/// Throws InputError naming the wall and the slot parameter when a slot is ill-defined.
void validate_slots(const std::vector<ShellSlot>& slots, const std::string& wall);

}  // namespace grainlab
