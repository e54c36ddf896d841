#pragma once
// Exact rigid clusters of a planar body network joined by non-slipping links (the reference for Gavrilov's
// template detection, claim G-C58; seed 002 l.2327-2341, 2403-2413): the motions allowed by the linearised
// non-slip constraints (5.22)-(5.23) are the null space of core/quasistatic/rigidity's constraint matrix;
// two free bodies belong to one rigid cluster when every allowed motion moves them as one rigid body, a
// free body is held rigidly by the fixed bodies when every allowed motion leaves it at rest. Computed per
// connected component of the free bodies (fixed bodies have no unknowns), by a column-pivoted QR of A^T.
// Exact for the given geometry, including its special positions (Fig. 5.22).
#include <vector>

#include "core/quasistatic/rigidity.hpp"

namespace grainlab::mbd {

struct RigidClusters {
  /// Per body: 0 for fixed bodies and free bodies held rigidly by them; otherwise the label of its rigid
  /// cluster (1, 2, ...; a body that moves relative to all others has a label of its own).
  std::vector<int> label;
  int labels = 1;  ///< labels used, 0 included
};

/// `tolerance` bounds the relative-motion residual (lengths scaled by the mean lever arm, orthonormal
/// null-space basis) below which two bodies count as moving together.
RigidClusters rigid_clusters(const std::vector<quasistatic::RigidBody>& bodies,
                             const std::vector<quasistatic::ContactLink>& links, double tolerance = 1e-7);

}  // namespace grainlab::mbd
