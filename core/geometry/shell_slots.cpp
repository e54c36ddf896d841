#include "core/geometry/shell_slots.hpp"

#include <cmath>
#include <string>

#include "core/geometry/validate_util.hpp"

namespace grainlab {

SlotCoordinates slot_coordinates(const ShellSlot& slot, double u, double z, double circumference) {
  const double du = std::remainder(u - slot.u_start, circumference);  // nearest image around the shell
  const double dz = z - slot.z_start;
  const double sb = std::sin(slot.bisector), cb = std::cos(slot.bisector);
  SlotCoordinates c;
  c.s = du * sb + dz * cb;
  c.t = du * cb - dz * sb;
  c.half_width = 0.5 * (slot.base_width + slot.widening * std::max(0.0, c.s));
  c.inside = c.s >= 0 && c.s <= slot.length && std::abs(c.t) < c.half_width;
  return c;
}

void collide_slotted_shell(const std::vector<ShellSlot>& slots, double R, const Vec3& axis_point, const Vec3& axis,
                           const Vec3& e1, const Vec3& e2, double theta, double z, double rho, const Vec3& radial,
                           const Vec3& c, double r, double margin, std::vector<WallHit>& hits) {
  if (rho >= R) return;  // leaving through a slot: the shell no longer holds it
  const double circumference = 2 * pi * R;
  const double u = R * theta;
  for (std::size_t k = 0; k < slots.size(); ++k) {
    const ShellSlot& slot = slots[k];
    const SlotCoordinates sc = slot_coordinates(slot, u, z, circumference);
    if (!sc.inside) continue;
    const double sb = std::sin(slot.bisector), cb = std::cos(slot.bisector);
    for (int side = 0; side < 2; ++side) {
      const double t_edge = side == 0 ? -sc.half_width : sc.half_width;
      // Edge point at the centre's s: move across the slot from (u, z) by t_edge - t, then onto the shell.
      const double u_edge = u + (t_edge - sc.t) * cb;
      const double z_edge = z - (t_edge - sc.t) * sb;
      const double angle = u_edge / R;
      const Vec3 point = axis_point + z_edge * axis + R * (std::cos(angle) * e1 + std::sin(angle) * e2);
      const Vec3 d = c - point;
      const double distance = d.norm();
      if (distance == 0) continue;
      emit_hit(hits, d / distance, point, r - distance, std::uint16_t(3 + 2 * k + side), margin);
    }
    return;  // inside a slot: no shell
  }
  const double distance = R - rho;
  emit_hit(hits, -radial, c + distance * radial, r - distance, 0, margin);
}

void validate_slots(const std::vector<ShellSlot>& slots, const std::string& wall) {
  using namespace geometry_detail;
  if (slots.size() > 1000) fail(wall, "slots", "at most 1000 slots (16-bit feature ids)");
  for (const ShellSlot& s : slots) {
    if (!std::isfinite(s.u_start) || !std::isfinite(s.z_start)) fail(wall, "slot start", "must be finite");
    if (!(std::abs(s.bisector) < 0.5 * pi)) fail(wall, "slot bisector", "must lie in (-90, 90) degrees from the axis");
    if (!(s.base_width > 0) || !std::isfinite(s.base_width)) fail(wall, "slot base_width", "must be positive and finite");
    if (!(s.widening >= 0) || !std::isfinite(s.widening)) fail(wall, "slot widening", "must be >= 0 and finite");
    if (!(s.length > 0) || !std::isfinite(s.length)) fail(wall, "slot length", "must be positive and finite");
  }
}

}  // namespace grainlab
