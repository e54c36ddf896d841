#pragma once
// The lever-arm cross products of a contact's linear rows, (p - x) x d for d = n, t1, t2 and each body,
// computed where they are used from the lever arm p - x that NdemRows stores (24 bytes per side instead
// of 72).
//
// They are rounded as NdemStepper::setup computed them when it stored the six products (GCC 12,
// x86-64-v3, `-ffp-contract=fast`): each component a*b - c*e is one fused multiply-add, fusing the first
// product (cross_fuse_first, row_frame.hpp) except in b's t2 lever, whose x fused the second product and whose y used
// t2's z as n x t1 with the first product fused (the set-up kept a second copy of t2's z, rounded
// differently from the stored t2). Spelled out with std::fma so that every user gets the same bits, and
// the rows are bit for bit those of the set-up that stored the products (tests/ndem/row_levers_test.cpp
// holds the values of that set-up).
#include <cmath>

#include "core/math.hpp"
#include "core/ndem/row_frame.hpp"

namespace grainlab::ndem_rows {

/// (p - x_a) x d for d = n, t1 or t2.
inline Vec3 lever_a(const Vec3& ra, const Vec3& d) { return cross_fuse_first(ra, d); }

/// (p - x_b) x n and (p - x_b) x t1.
inline Vec3 lever_b(const Vec3& rb, const Vec3& d) { return cross_fuse_first(rb, d); }

/// (p - x_b) x t2, with t2 = n x t1 as stored (see the file comment for the y component).
inline Vec3 lever_b_t2(const Vec3& rb, const Vec3& n, const Vec3& t1, const Vec3& t2) {
  const double t2z = std::fma(n.x(), t1.y(), -(n.y() * t1.x()));
  return Vec3(std::fma(-rb.z(), t2.y(), rb.y() * t2.z()), std::fma(-rb.x(), t2z, rb.z() * t2.x()),
              std::fma(rb.x(), t2.y(), -(rb.y() * t2.x())));
}

/// The three levers of one side: (p - x) x n, x t1, x t2.
struct Levers {
  Vec3 n, t1, t2;
};

inline Levers levers_a(const Vec3& ra, const Vec3& n, const Vec3& t1, const Vec3& t2) {
  return {lever_a(ra, n), lever_a(ra, t1), lever_a(ra, t2)};
}
inline Levers levers_b(const Vec3& rb, const Vec3& n, const Vec3& t1, const Vec3& t2) {
  return {lever_b(rb, n), lever_b(rb, t1), lever_b_t2(rb, n, t1, t2)};
}

}  // namespace grainlab::ndem_rows
