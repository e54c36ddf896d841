#pragma once
// Cross-section profile of an elongated pile (a ridge along x) on a ground plane z = 0, and its angle of
// repose from fits to the two flanks (Paper III E5, 000 l.1364, 1372; ledger ../shared/claims/paper3.md E5):
//  - the particles with x in [x_lo, x_lo + segments * segment_length) are split into `segments` slices
//    along x; in each slice the surface height of a y bin (width `bin_width`, bins centred on y = 0 out
//    to |y| <= half_width) is the highest z + r of its surface particles, 0 (the ground) where the bin is
//    empty. A surface particle moves slower than `surface_speed` relative to the ground's surface velocity
//    `ground_velocity` (a belt): this keeps out the stream still falling from the source, not the rolling
//    toe of a melting pile; particles centred above `max_height` (just released at the source, not yet
//    fast) are not surface either, nor those centred below `min_height` (Paper V E1: "neglecting particles
//    resting directly on the conveyor surface", 000 l.2095; default: none left out);
//  - the averaged profile is the mean of the slices' surfaces (ledger: "averaged over 20 segments");
//  - each flank is fitted with a line over the bins on its side of the peak whose height lies in
//    [flank_low, flank_high] x the peak height (away from the rounded crest and the spread toe), walking
//    out from the peak until the height first drops below flank_low (a stray particle beyond the toe is not
//    part of the flank); the angle is the mean of the two flank angles (one flank alone if the other has
//    fewer than 3 bins; NaN if both have);
//  - the spread is the sample standard deviation of the slices' own angles (each slice fitted alike).
// Pure functions of the particle state; no knowledge of the engine.
#include <vector>

#include "core/particles.hpp"

namespace grainlab {

struct RidgeProfileSettings {
  double x_lo = 0;                ///< m, start of the measured stretch along the ridge
  double segment_length = 0.03175;  ///< m, 2.5 d (ledger E5)
  int segments = 20;
  double bin_width = 0.00635;     ///< m, across the ridge (0.5 d, ledger E5)
  double half_width = 0.5;        ///< m, bins cover |y| <= half_width
  Vec3 ground_velocity = Vec3::Zero();  ///< m/s, surface velocity of the ground (belt)
  double surface_speed = 0.2;     ///< m/s, faster particles (relative to the ground) are not surface
  double max_height = 1e300;      ///< m, particles centred above are not surface (just emitted, still slow)
  double min_height = -1e300;     ///< m, particles centred below are not surface (Paper V: the layer on the belt)
  double flank_low = 0.2, flank_high = 0.8;
};

struct FlankAngles {
  double angle_deg = 0;     ///< mean of the usable flanks, degrees; NaN if none
  double left_deg = 0, right_deg = 0;  ///< NaN where the flank has fewer than 3 bins
  int left_bins = 0, right_bins = 0;
  double left_intercept = 0, left_slope = 0;    ///< fitted line h = intercept + slope y (NaN: no fit)
  double right_intercept = 0, right_slope = 0;
  double peak = 0;          ///< m, highest bin
  double peak_y = 0;        ///< m, its bin centre
};

struct RidgeProfile {
  std::vector<double> y;        ///< m, bin centres
  std::vector<double> surface;  ///< m, mean surface height over the slices
  FlankAngles fit;              ///< of the mean surface
  double angle_sd_deg = 0;      ///< sample sd of the slices' angles (NaN with < 2 finite)
  int slice_angles = 0;         ///< slices with a finite angle
};

/// Flank fit of a profile h(y) sampled at bin centres y (both of equal size).
FlankAngles fit_flanks(const std::vector<double>& y, const std::vector<double>& h, double flank_low, double flank_high);

/// Throws InputError for a non-positive segment length, bin width, half width or segment count.
RidgeProfile measure_ridge(const ParticleStore& particles, const RidgeProfileSettings& s);

}  // namespace grainlab
