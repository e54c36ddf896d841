#pragma once
// The shaker ball mill of Gavrilov Ch. 3 (G-E1, G-E2): N steel balls at rest at random positions in a
// vertical cylinder shaken on Eq. (3.19); collisional dissipation H and collision rates measured over
// [discard, duration] (ledger defaults). Shared by edmd_shaker and edmd_grinding (which feeds the
// measured rate lambda to the grinding models).
#include <cstdint>
#include <vector>

#include "experiments/experiment.hpp"

namespace grainlab::edmd_runs {

struct ShakerSetup {
  int balls = 125;
  double ball_radius = 3.2e-3, density = 7850;
  double cylinder_radius = 0.0315, cylinder_height = 0.103;
  double amplitude = 0.0109, frequency = 52.6;
  double restitution_pair = 0.98, restitution_wall = 0.95, gravity = 9.81;
  double duration = 1.1, discard = 0.1, window = 0.1, tc = 0;
  std::uint64_t seed = 1;
};

struct ShakerResult {
  double H_total = 0, H_pair = 0, H_wall = 0;        ///< W, dissipation rate over the window
  double rate_pair = 0, rate_wall = 0, rate_total = 0;  ///< collisions / s
  double window_spread_pair = 0, window_spread_total = 0;  ///< max |rate_w / mean - 1| over the windows
  double wall_power = 0, wall_power_printed = 0;     ///< W: (1+eps) m v20 (v20-v10) and Eq. (3.18)
  double balance_error = 0;   ///< |dE - (W - loss)| / W over the window
  double kinetic_energy_mean = 0;
  double events = 0;
  std::vector<std::vector<double>> windows;  ///< t_end, rate_pair, rate_wall, H_total
};

ShakerResult run_shaker(const ShakerSetup& s);
std::vector<ParameterSpec> shaker_parameters();
ShakerSetup shaker_from(const Parameters& p);

}  // namespace grainlab::edmd_runs
