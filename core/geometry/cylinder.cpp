#include "core/geometry/cylinder.hpp"

#include <cmath>

#include "core/geometry/validate_util.hpp"

namespace grainlab {

using namespace geometry_detail;

AxialCoordinates axial_coordinates(const Vec3& center, const Vec3& axis, const Vec3& x) {
  const Vec3 rel = x - center;
  const double z = rel.dot(axis);
  const Vec3 radial = rel - z * axis;
  const double rho = radial.norm();
  return {z, rho, rho > 0 ? Vec3(radial / rho) : any_orthogonal(axis)};
}

namespace {

void collide_polygon(const CylinderShape& s, const AxialCoordinates& a, const Vec3& c, double r, double margin,
                     std::vector<WallHit>& hits) {
  const int n = s.polygon_faces;
  const double beta = 2 * pi / n;
  const double half_width = s.radius * std::tan(0.5 * beta);
  const Vec3 radial = a.rho * a.radial;
  const Vec3 w0 = s.axis.cross(s.reference);
  const double theta = std::atan2(radial.dot(w0), radial.dot(s.reference));
  // Face j is within reach only if its distance R - rho cos(phi_j) <= r + margin, phi_j being the angle
  // between the centre's direction and face j's normal.
  const double gap = s.radius - r - margin;
  if (gap > a.rho) return;  // no face within reach
  const double phi_max = gap <= 0 ? pi : std::acos(gap / a.rho);
  int k_lo = int(std::floor((theta - phi_max) / beta)), k_hi = int(std::ceil((theta + phi_max) / beta));
  if (k_hi - k_lo + 1 >= n) {
    k_lo = 0;
    k_hi = n - 1;
  }
  for (int k = k_lo; k <= k_hi; ++k) {
    const int face = ((k % n) + n) % n;
    const double angle = face * beta;
    const Vec3 m = std::cos(angle) * s.reference + std::sin(angle) * w0;  // outward face normal
    const double t = radial.dot(s.axis.cross(m));
    if (std::abs(t) > half_width) continue;  // foot beyond the face edge: a concave corner
    const double distance = s.radius - radial.dot(m);
    emit_hit(hits, -m, c + distance * m, r - distance, std::uint16_t(3 + face), margin);
  }
}

void collide_inside(const CylinderShape& s, const Vec3& c, double r, double margin, std::vector<WallHit>& hits) {
  const AxialCoordinates a = axial_coordinates(s.center, s.axis, c);
  if (s.polygon_faces >= 3) {
    const double h = 0.5 * s.length;
    if (s.cap_lo) emit_hit(hits, s.axis, c - (a.z + h) * s.axis, r - (a.z + h), 1, margin);
    if (s.cap_hi) emit_hit(hits, -s.axis, c + (h - a.z) * s.axis, r - (h - a.z), 2, margin);
    if (std::abs(a.z) <= h) collide_polygon(s, a, c, r, margin, hits);
    return;
  }
  bool interior = false;
  collide_ends(s, a, c, r, margin, hits, interior);
  if (interior) {
    const double distance = s.radius - a.rho;
    emit_hit(hits, -a.radial, c + distance * a.radial, r - distance, 0, margin);
  }
}

void collide_outside(const CylinderShape& s, const Vec3& c, double r, double margin, std::vector<WallHit>& hits) {
  const AxialCoordinates a = axial_coordinates(s.center, s.axis, c);
  const double h = 0.5 * s.length;
  const double end_sign = a.z >= 0 ? 1.0 : -1.0;
  const double dz = std::abs(a.z) - h;   // > 0: beyond an end plane
  const double dr = a.rho - s.radius;    // > 0: outside the shell surface
  const std::uint16_t end_feature = a.z >= 0 ? 2 : 1;
  if (dz > 0 && dr > 0) {  // rim circle
    const Vec3 q = s.center + end_sign * h * s.axis + s.radius * a.radial;
    const Vec3 d = c - q;
    const double dist = d.norm();
    if (dist <= r + margin) emit_hit(hits, d / dist, q, r - dist, 0, margin);
  } else if (dz > dr) {  // end disc (also: inside the solid, nearer the end)
    const Vec3 n = end_sign * s.axis;
    emit_hit(hits, n, c - dz * n, r - dz, end_feature, margin);
  } else {  // shell (also: inside the solid, nearer the shell)
    emit_hit(hits, a.radial, c - dr * a.radial, r - dr, 0, margin);
  }
}

}  // namespace

void collide_ends(const CylinderShape& s, const AxialCoordinates& a, const Vec3& c, double r, double margin,
                  std::vector<WallHit>& hits, bool& shell_interior) {
  const double h = 0.5 * s.length;
  shell_interior = std::abs(a.z) <= h;
  // Caps: flat discs, half-space contact.
  if (a.rho <= s.radius) {
    if (s.cap_lo) {
      const double distance = a.z + h;
      emit_hit(hits, s.axis, c - distance * s.axis, r - distance, 1, margin);
    }
    if (s.cap_hi) {
      const double distance = h - a.z;
      emit_hit(hits, -s.axis, c + distance * s.axis, r - distance, 2, margin);
    }
  }
  // Beyond an open end: the rim circle.
  if (!shell_interior && !(a.z > 0 ? s.cap_hi : s.cap_lo)) {
    const Vec3 q = s.center + (a.z > 0 ? h : -h) * s.axis + s.radius * a.radial;
    const Vec3 d = c - q;
    const double dist = d.norm();
    if (dist <= r + margin) emit_hit(hits, dist > 0 ? Vec3(d / dist) : Vec3(-a.radial), q, r - dist, 0, margin);
  }
}

void collide(const CylinderShape& s, const Vec3& c, double r, double margin, std::vector<WallHit>& hits) {
  if (s.side == CylinderShape::Side::inside)
    collide_inside(s, c, r, margin, hits);
  else
    collide_outside(s, c, r, margin, hits);
}

void move(CylinderShape& s, const RigidMotion& m) {
  s.center = m.point(s.center);
  s.axis = m.direction(s.axis);
  if (s.polygon_faces >= 3) {
    const Vec3 ref = m.direction(s.reference);
    s.reference = (ref - ref.dot(s.axis) * s.axis).normalized();
  }
}

void validate(const CylinderShape& s, const std::string& wall) {
  require_finite(s.center, wall, "cylinder center");
  require_unit(s.axis, wall, "cylinder axis");
  require_positive_finite(s.radius, wall, "cylinder radius", "m");
  require_positive(s.length, wall, "cylinder length", "m");
  if (std::isinf(s.length) && (s.cap_lo || s.cap_hi)) fail(wall, "cylinder cap_lo/cap_hi", "need a finite length");
  if (s.polygon_faces != 0) {
    if (s.polygon_faces < 3 || s.polygon_faces > 65000)
      fail(wall, "cylinder polygon_faces", fmt::format("must be 0 (circle) or in [3, 65000] (got {})", s.polygon_faces));
    if (s.side != CylinderShape::Side::inside) fail(wall, "cylinder polygon_faces", "needs side = inside");
    require_unit(s.reference, wall, "cylinder reference");
    if (std::abs(s.reference.dot(s.axis)) > 1e-9) fail(wall, "cylinder reference", "must be orthogonal to the axis");
  }
}

}  // namespace grainlab
