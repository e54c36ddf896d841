#pragma once
// Rigidity of a planar group of bodies joined by non-slipping links (Gavrilov 1999 Sec. 5.7.2-5.7.5, seed 002
// l.2327-2475): each link is 2 linear equations (5.22)-(5.23), the relative velocity of the two bodies at
// the contact point is zero; the degrees of freedom are 3 n_free - rank. A quasi-rigid body (QRB) has 3
// (free group) or 0 (group with a fixed body). Also the face counts of a straight-line planar graph
// (Euler, Eq. 5.24). Used by the G-E9 method checks; the QRB grouping of the hopper can reuse it.
#include <vector>

#include <Eigen/Dense>

namespace grainlab::quasistatic {

struct RigidBody {
  Eigen::Vector2d centre{0, 0};
  bool fixed = false;
};

struct ContactLink {
  int a = 0, b = 0;
  Eigen::Vector2d point{0, 0};  ///< contact point
};

/// 3 x (free bodies) - rank of the linearised non-slip constraints. `equations_per_link` = 2 (planar
/// non-slip link); 3 adds equal rotations (a welded link), a deliberately wrong model for perturbations.
int degrees_of_freedom(const std::vector<RigidBody>& bodies, const std::vector<ContactLink>& links,
                       int equations_per_link = 2);

/// The linearised non-slip constraints behind degrees_of_freedom: `equations_per_link` rows per link (the
/// relative velocity of the two bodies at the contact point, (5.22)-(5.23)), 3 columns (u_x, u_y, omega) per
/// free body in index order; fixed bodies have no columns (`column`, when given, gets -1 for them).
Eigen::MatrixXd nonslip_constraints(const std::vector<RigidBody>& bodies, const std::vector<ContactLink>& links,
                                    int equations_per_link = 2, std::vector<int>* column = nullptr);

/// Face sizes of a connected straight-line planar graph (vertices at `points`, edges as index pairs), the
/// outer face included: each face's number of edge sides (a bridge counts twice).
std::vector<int> planar_face_sizes(const std::vector<Eigen::Vector2d>& points,
                                   const std::vector<std::pair<int, int>>& edges);

}  // namespace grainlab::quasistatic
