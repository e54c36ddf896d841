#pragma once
// The force write-back of an NDEM contact: the multipliers of its rows as a force and a pure torque on
// body a (body b gets the opposite), shared by the sphere rows (NdemStepper::integrate) and the
// rigid-body rows (NdemBodyRows::integrate).
//
// Spelled out with std::fma, rounded as GCC 12 (x86-64-v3) rounded the loops that computed them in
// place (the sphere rows' objdump; bit for bit on ten scenes, docs/ndem_row_model.md): sums left to right
// with each product fused into the sum that follows it, the moment's components fusing their first product.
#include <cmath>

#include "core/math.hpp"
#include "core/ndem/row_frame.hpp"

namespace grainlab::ndem_rows {

/// G^T lambda / Dt of the linear rows: (s lambda_n n + lambda_t1 t1 + lambda_t2 t2) / Dt, with
/// `normal` = s lambda_n.
inline Vec3 contact_force(double normal, double t1_multiplier, double t2_multiplier, const Vec3& n, const Vec3& t1,
                          const Vec3& t2, double dt) {
  auto component = [&](int k) {
    return std::fma(t2_multiplier, t2[k], std::fma(t1_multiplier, t1[k], normal * n[k])) / dt;
  };
  return Vec3(component(0), component(1), component(2));
}

/// The angular rows' pure torque (lambda_r1 t1 + lambda_r2 t2 + lambda_twist n) / Dt.
inline Vec3 contact_pure_torque(const double* angular_multipliers, const Vec3& n, const Vec3& t1, const Vec3& t2,
                                double dt) {
  const double* L = angular_multipliers;
  auto component = [&](int k) { return std::fma(L[2], n[k], std::fma(L[1], t2[k], L[0] * t1[k])) / dt; };
  return Vec3(component(0), component(1), component(2));
}

/// The torque of the contact load about a body point x: (p - x) x f + pure torque, `lever` = p - x.
inline Vec3 contact_torque(const Vec3& lever, const Vec3& force, const Vec3& pure_torque) {
  return cross_fuse_first(lever, force) + pure_torque;
}

}  // namespace grainlab::ndem_rows
