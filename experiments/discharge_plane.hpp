#pragma once
// Discharge distribution through a horizontal plane below a conveyor's end (Paper V E1, 000 l.2095,
// 2122, 2158; ledger ../shared/claims/paper5.md E1): every particle whose centre passes the plane
// z = plane_z downwards is recorded at its crossing point (x, y), interpolated on the straight path of the
// last step (the NDEM position update is x+ = x + dt v+, so x - dt v+ is exactly the previous centre of a
// free particle). From the crossings of a time window: the geometric centre (x_c, y_c), the spread (sample
// sd per axis) and a normalised 2-D histogram on a fixed grid, whose L1 distance to another run's
// histogram on the same grid measures how similar two discharge distributions are (0: equal, 2: disjoint).
// Pure functions of the particle state; no knowledge of the engine.
#include <cstddef>
#include <vector>

#include "core/particles.hpp"

namespace grainlab {

struct DischargeCrossing {
  double time = 0;  ///< s, end of the step in which the centre passed the plane
  double x = 0, y = 0;  ///< m, crossing point
};

/// Appends the crossings of the step that just ended at `time` (length dt): particles with z < plane_z
/// whose previous centre z - dt v_z was at or above it.
void record_crossings(const ParticleStore& particles, double plane_z, double dt, double time,
                      std::vector<DischargeCrossing>& out);

struct DischargeGrid {
  double x_lo = 0, y_lo = 0;  ///< m, lower corner of the grid
  double cell = 0.013;        ///< m, square cells
  int nx = 1, ny = 1;
};

struct DischargeDistribution {
  std::size_t count = 0;      ///< crossings in the window
  double x_c = 0, y_c = 0;    ///< m, geometric centre (mean crossing point); NaN without crossings
  double sd_x = 0, sd_y = 0;  ///< m, sample sd; NaN with fewer than 2 crossings
  std::vector<double> histogram;  ///< nx * ny fractions (row-major in y: index ix * ny + iy); a crossing
                                  ///< outside the grid counts in `outside`, not in a cell
  double outside = 0;         ///< fraction of crossings outside the grid
};

/// The distribution of the crossings with t_from <= time <= t_to. Throws InputError for a non-positive cell
/// or non-positive nx, ny.
DischargeDistribution discharge_distribution(const std::vector<DischargeCrossing>& crossings, double t_from,
                                             double t_to, const DischargeGrid& grid);

/// Sum over cells of |a_i - b_i| plus |outside_a - outside_b| (0 ... 2). Throws InputError when the
/// histograms differ in size.
double histogram_l1_distance(const DischargeDistribution& a, const DischargeDistribution& b);

}  // namespace grainlab
