#pragma once
// The contact frame of an NDEM row (n, t1 from the carried tangent, t2 = n x t1) and the wall's known
// velocity term, shared by the sphere rows (NdemStepper::setup) and the rigid-body rows
// (NdemBodyRows::set_jacobians, set_wall_bias).
//
// Spelled out with std::fma, rounded as GCC 12 (x86-64-v3, `-ffp-contract=fast`) rounded the loops that
// computed them in place (read off the objdump of the sphere set-up and the body rows' frame, and checked
// bit for bit on the rows of ten scenes, docs/ndem_row_model.md). Written out, they round the same wherever
// they are called, so sharing them changes no bit.
#include <cmath>

#include "core/math.hpp"
#include "core/walls.hpp"

namespace grainlab::ndem_rows {

/// a x b, each component a_i b_j - a_j b_i as fma(a_i, b_j, -(a_j b_i)).
inline Vec3 cross_fuse_first(const Vec3& a, const Vec3& b) {
  return Vec3(std::fma(a.y(), b.z(), -(a.z() * b.y())), std::fma(a.z(), b.x(), -(a.x() * b.z())),
              std::fma(a.x(), b.y(), -(a.y() * b.x())));
}

/// a * b rounded on its own. GCC fuses a product into the sum that uses it (`-ffp-contract=fast`); where the
/// pinned rounding adds two separately rounded products, the empty asm statement keeps it from doing so.
inline double separate_product(double a, double b) {
  double p = a * b;
#if defined(__GNUC__) && defined(__x86_64__)
  asm("" : "+x"(p));
#endif
  return p;
}

/// a . b as fma(a_z, b_z, a_x b_x + a_y b_y), the first two products rounded before their sum.
inline double dot3(const Vec3& a, const Vec3& b) {
  return std::fma(a.z(), b.z(), separate_product(a.x(), b.x()) + separate_product(a.y(), b.y()));
}

/// t1: the carried tangent re-projected on the plane normal to n and normalised, or any direction in that
/// plane when the projection is (nearly) zero (a new contact carries no tangent).
inline Vec3 frame_t1(const Vec3& n, const Vec3& tangent) {
  const double along = dot3(tangent, n);
  const Vec3 t(std::fma(-along, n.x(), tangent.x()), std::fma(-along, n.y(), tangent.y()),
               std::fma(-along, n.z(), tangent.z()));
  const double squared = dot3(t, t);
  if (!(squared > 1e-12)) return any_orthogonal(n);
  const double norm = std::sqrt(squared);
  return Vec3(t.x() / norm, t.y() / norm, t.z() / norm);
}

/// t2 = n x t1 of the sphere rows (x and z fusing the second product, y the first: as NdemStepper::setup
/// rounded it when it stored the levers' products, row_levers.hpp). The body rows use cross_fuse_first.
inline Vec3 frame_t2(const Vec3& n, const Vec3& t1) {
  return Vec3(std::fma(-n.z(), t1.y(), n.y() * t1.z()), std::fma(n.z(), t1.x(), -(n.x() * t1.z())),
              std::fma(-n.y(), t1.x(), n.x() * t1.y()));
}

/// Length of sphere b's lever arm on the line of centres, p - x_b = (r_b - delta / 2) n (delta / 2 is exact,
/// so this is the one rounding of r_b - delta / 2 however it is written).
inline double sphere_arm_b(double radius_b, double overlap) { return radius_b - 0.5 * overlap; }

/// -G_b (v_wall, w_wall) of a wall on side b at contact point p, rows n, t1, t2 (linear) and t1, t2, n
/// (angular; only the first `rows` are written).
inline void wall_bias(const Wall& wall, const Vec3& point, const Vec3& n, const Vec3& t1, const Vec3& t2, int rows,
                      double* bias) {
  const Vec3 vw = wall.velocity_at(point);
  const Vec3& ww = wall.angular_velocity;
  const double b[6] = {-dot3(n, vw), -dot3(t1, vw), -dot3(t2, vw), -dot3(t1, ww), -dot3(t2, ww), -dot3(n, ww)};
  for (int r = 0; r < rows; ++r) bias[r] = b[r];
}

}  // namespace grainlab::ndem_rows
