#pragma once
// One contact link of the quasi-static (QS) truss model, Gavrilov 1999 Ch. 4 (seed 002): a 2-node element
// S = [[C, -C], [-C, C]] with C = T^T diag(K_eta, K_tau) T (Eq. 4.17-4.18, 002 l.1187-1193). Nodes are disk
// centres with two translational DOF; the second end may be a fixed node (a wall contact point, "radius
// zero", 002 l.1305). Compression is positive (Ch. 4 convention, 002 l.1283).
#include <Eigen/Dense>

namespace grainlab::quasistatic {

using Vec2 = Eigen::Vector2d;
using Mat2 = Eigen::Matrix2d;

/// A fixed node (wall) in place of a free node index.
inline constexpr int fixed_node = -1;

struct LinkSpring {
  double k_normal = 0;      ///< K_eta, N/m
  double k_tangential = 0;  ///< K_tau, N/m
  double friction = 0;      ///< Coulomb mu
};

/// C = K_eta n n^T + K_tau t t^T for the unit normal n (t = n rotated by +90 degrees): T^T C0 T of Eq. 4.18.
Mat2 link_stiffness(const Vec2& normal, const LinkSpring& spring);
/// C^{-1} = n n^T / K_eta + t t^T / K_tau (the compliance that RIMA's cases 0 and 1 add).
Mat2 link_compliance(const Vec2& normal, const LinkSpring& spring);
/// The tangent paired with a normal: n rotated by +90 degrees.
inline Vec2 link_tangent(const Vec2& normal) { return Vec2(-normal.y(), normal.x()); }

}  // namespace grainlab::quasistatic
