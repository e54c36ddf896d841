#pragma once
// Measures of a granular pile on a horizontal ground plane z = 0, built around the vertical axis through
// (axis_x, axis_y) (Paper IV E2, 000 l.1654-1664; ledger ../shared/claims/paper4.md E2):
//  - height: max over resting particles (|v| < rest_speed) of z + r (ledger default), and the mean of the
//    `top` highest resting particles (less sensitive to one particle sitting on the apex);
//  - centroid height: 4 x the mean centre height of the resting particles (a cone's centroid lies at a
//    quarter of its height): a bulk measure that averages over every particle, so one particle on the apex
//    moves it by 1/N_p of what it moves the maximum;
//  - angle of repose from the free surface: resting particles binned by the distance rho from the axis
//    (bins of width `bin_width`); the surface height of a bin is its highest z + r; a line fitted to the
//    surface heights of the bins whose height lies between `flank_low` and `flank_high` times the pile
//    height (the flank, away from the rounded apex and the spread-out toe) gives tan(angle) = -slope.
// Pure functions of the particle state; no knowledge of the engine.
#include <vector>

#include "core/particles.hpp"

namespace grainlab {

struct PileMeasureSettings {
  double rest_speed = 0.01;  ///< m/s; a particle with |v| below rests (ledger E2 default)
  int top = 5;               ///< particles averaged in height_top
  double axis_x = 0, axis_y = 0;
  double bin_width = 0.013;  ///< m, radial bin of the surface profile (one diameter)
  double flank_low = 0.2, flank_high = 0.8;  ///< fraction of the height bounding the fitted flank
};

struct PileMeasures {
  double height = 0;      ///< m, max z + r over resting particles; NaN when none rests
  double height_top = 0;  ///< m, mean z + r of the `top` highest resting particles; NaN when fewer rest
  double height_centroid = 0;  ///< m, 4 x mean z of the resting particles' centres; NaN when none rests
  double angle_deg = 0;   ///< degrees, from the flank fit; NaN with fewer than 3 flank bins
  int flank_bins = 0;     ///< bins used by the flank fit
  std::size_t resting = 0;
  std::vector<double> surface;  ///< m, highest z + r of the resting particles per radial bin (NaN: empty bin)
};

PileMeasures measure_pile(const ParticleStore& particles, const PileMeasureSettings& s);

}  // namespace grainlab
