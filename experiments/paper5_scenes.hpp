#pragma once
// Scenes and settings of Paper V's method checks (000 l.2080-2093, Table 1; ledger ../shared/claims/paper5.md
// §1 common settings): iron-ore pellet material, the linear contact law k_n = 3 kN/m, Dt = 5 ms, g = 9.81.
// Used by experiments/paper5_method_checks.cpp and tests/ndem/reduction_test.cpp.
#include "core/ndem/ndem_settings.hpp"
#include "core/world.hpp"

namespace grainlab {

/// Table 1 material (rho 3700, e 0.18, mu_t 0.91, mu_r 0.32; E and nu unused by the linear law).
Material paper5_material();

/// NDEM settings of Table 1: linear law k_n = 3000 N/m, Dt = 5 ms, N_it = iterations, gamma_t = gamma_r =
/// 1e-6, n_s = 2, v_imp = eps d / Dt with eps = 0.01 (ledger P15); reduction off.
NdemSettings paper5_ndem_settings(int iterations);

/// A resting block: nx x ny x nz spheres of diameter d on a simple cubic lattice (spacing d, the bottom
/// layer on the floor z = 0), with four frictionless side walls at the block's faces (none when
/// side_walls is false). Particles start at rest; settle them with the stepper.
struct Paper5Block {
  int nx = 4, ny = 4, nz = 4;
  double diameter = 0.013;
  bool side_walls = true;
};
World paper5_block_world(const Paper5Block& block);

}  // namespace grainlab
