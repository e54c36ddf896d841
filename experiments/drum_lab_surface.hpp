#pragma once
// Lab-frame free surface and plug creep of a rotating drum (Paper V E3, 000 l.2126, 2164, 2154; ledger
// ../shared/claims/paper5.md E3, P5-C39 and P5-C48). Complements experiments/drum_flow_stats.hpp (which fits
// the surface in the D/2 window of the bed frame): here the whole surface is profiled across the drum, to see
// the artefacts of model reduction the paper reports for cs-150, "structures much steeper than the angle of
// repose" and "high lifting" (000 l.2164).
//
// - Profile: particles binned by their horizontal coordinate a = (x - c) . h across the drum (h = the unit
//   horizontal direction orthogonal to the axis: probe.axis x probe.down... see lab_horizontal), bins of
//   `bin_width` over |a| <= R; each occupied bin's surface height is its highest sphere top (x - c) . up + r,
//   up = -probe.down.
// - Slopes: the steepest inclination atan(|z_j - z_i| / (a_j - a_i)) between occupied bins `base` bins apart,
//   both at least `wall_margin` from the shell (where the bed meets the wall the top is the wall's, not the
//   surface's); NaN when no pair qualifies.
// - Lift height: the highest surface point over the whole profile (wall bins included: that is where the
//   material is lifted), m above the drum axis.
// - Line fit: least squares z = z0 + k a over the non-margin occupied bins; the lifted side is sign(k) (the
//   surface rises towards it), used to place the sensor of the cs runs.
// - Plug creep: v_r = |v - Omega x r| / (R |Omega|) per particle (experiments/drum_flow_stats.hpp, the sign
//   corrected, Paper IV P13); the plug is v_r <= threshold; creep = mean v_r over the plug (0 for rigid
//   co-rotation; the Paper V Fig. 7 colour scale runs to 10 %, 000 l.2154).
// Threading: pure functions.
#include <span>
#include <vector>

#include "core/math.hpp"
#include "experiments/drum_bed.hpp"

namespace grainlab {

struct LabSurface {
  std::vector<double> a;       ///< bin centres, m
  std::vector<double> height;  ///< top per bin, m above the axis (NaN where empty)
  double radius = 0;           ///< drum radius the profile covers
};

/// Unit horizontal direction in the cross-section: axis x down (right-handed with up and the axis).
Vec3 lab_horizontal(const DrumProbe& probe);

/// Profile of one instant; `bin_width` > 0 (InputError otherwise).
LabSurface lab_surface(const DrumProbe& probe, std::span<const Vec3> position, std::span<const double> radius,
                       double bin_width);

/// Steepest inclination (deg) between occupied bins `base` (>= 1) bins apart away from the wall.
double max_surface_slope_deg(const LabSurface& s, int base, double wall_margin);

/// Highest occupied surface point (m above the axis); NaN for an empty profile.
double lift_height(const LabSurface& s);

struct SurfaceLine {
  bool valid = false;  ///< at least 3 bins
  double z0 = 0, slope = 0;
  double rms = 0;      ///< rms of the bin heights about the line, m (flatness of the surface)
};

/// Least-squares line through the occupied bins at least `wall_margin` from the shell.
SurfaceLine fit_lab_surface(const LabSurface& s, double wall_margin);

struct PlugCreep {
  double fraction = 0;  ///< share of the particles with v_r <= threshold (NaN without particles)
  double creep = 0;     ///< mean v_r over them (NaN if none)
};

PlugCreep plug_creep(const DrumProbe& probe, std::span<const Vec3> position, std::span<const Vec3> velocity,
                     double threshold);

}  // namespace grainlab
