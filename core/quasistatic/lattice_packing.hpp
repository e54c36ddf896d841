#pragma once
// A monosized triangular packing in a planar silo, built row by row through RIMA: the "single QRB in a
// silo configuration" of Gavrilov's RIMA-vs-CG timing (G-E7, seed 002 l.2542; slips not considered). Rows
// alternate `per_row` and per_row - 1 disks; the long rows touch both side walls, the first row the floor.
// Every touching pair and disk-wall contact is a link (disk-disk and disk-wall springs of T3).
#include <vector>

#include <Eigen/Dense>

#include "core/quasistatic/inverse_stiffness.hpp"
#include "core/quasistatic/truss.hpp"

namespace grainlab::quasistatic {

struct LatticePacking {
  Truss truss;
  InverseStiffness rima;
  std::vector<Vec2> positions;
  Eigen::VectorXd gravity_loads;  ///< -m g on every y DOF
};

/// `disks` disks of radius r, `per_row` in the long rows (width = 2 r per_row); links inserted as each
/// disk is added (case 0/1 first, then 2/3), so RIMA's Z is built exactly as in a filling.
LatticePacking build_lattice_packing(int disks, int per_row, double radius, double mass, double gravity,
                                     const LinkSpring& disk_link, const LinkSpring& wall_link, int threads = 1);

}  // namespace grainlab::quasistatic
