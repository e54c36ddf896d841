#pragma once
// Free surface, dynamic angle of repose, surface-layer velocities and plug zone of a rotating-drum bed from
// coarse-grained section fields (experiments/section_fields.hpp). Paper III Sec. 5.2 and 6.2 (000
// l.1289-1297, 1374-1376); definitions left open by the paper are the ledger's E6 defaults
// (../shared/claims/paper3.md E6 "Unspecified").
//
// Section coordinates (a, b) about the drum axis with b up and the drum turning at omega > 0 about
// e3 = e1 x e2, i.e. counter-clockwise in (a, b): the wall at the bottom moves towards +a and lifts the bed
// on the +a side. The paper's angle theta (from the upward vertical, increasing through the lifted side,
// 180 deg at the bottom) of a point is atan2(a, b).
//
// - Free surface: the iso-line of half the bulk density (section_fields.hpp bulk_density) of the
//   time-averaged density field. In each grid column (fixed a), scanning down from the top, the first
//   crossing of the threshold (linear between nodes) is a surface point; points within `wall_margin` of
//   the wall (radius R) are dropped (there the bed meets the wall and its texture).
// - Surface fit: least-squares line b = b0 + k a through the points; theta'_r = atan(k) (the bed is
//   lifted at +a, so a positive k is the physical sign). theta_1 and theta_2 are the paper angles of the
//   line's two crossings of the wall circle (upper/lifted end and lower end); 180 - (theta_1 + theta_2)/2
//   is the chord formula the observation uses (000 l.1291), which equals atan(k) for a straight line.
// - Surface layer: particles whose centre lies within `layer` of the fitted line (either side) and whose
//   angle theta is in [theta_3, theta_4] (135-160 deg, 000 l.1374). v_s_perp = mean in-plane speed,
//   v_sz = mean axial velocity (along e3), v_s = mean speed |v| (three components), so that
//   v_s >= sqrt(v_s_perp^2 + v_sz^2) with equality only without fluctuations (P3-C37).
// - Plug zone (P3-C40): bed nodes (density >= the surface threshold) whose time-averaged in-plane velocity
//   differs from rigid co-rotation omega e3 x r by at most `plug_tolerance`; plug_fraction = their share of
//   the bed mass; shear_axial_share = the share of the bed's axial momentum carried by the other nodes.
// Threading: pure functions.
#include <span>
#include <vector>

#include "core/math.hpp"
#include "experiments/section_fields.hpp"

namespace grainlab {

struct SurfaceFit {
  bool valid = false;       ///< at least 3 surface points
  int points = 0;
  double b0 = 0, slope = 0; ///< b = b0 + slope a (m, -)
  double angle_deg = 0;     ///< theta'_r = atan(slope), deg
  double theta1_deg = 0;    ///< upper (lifted) wall crossing, paper convention, deg
  double theta2_deg = 0;    ///< lower wall crossing, deg
  double chord_angle_deg = 0;  ///< 180 - (theta1 + theta2)/2, deg
  double rms_residual = 0;  ///< rms distance of the points from the line, m (surface irregularity)
};

/// Surface points and their line fit (see the file comment). `threshold`: density of the iso-line.
SurfaceFit fit_free_surface(const SectionGrid& grid, const std::vector<double>& density, double threshold,
                            double radius, double wall_margin);

/// Paper angle theta of section point (a, b), deg in [0, 360).
double paper_angle_deg(double a, double b);

struct SurfaceLayer {
  int particles = 0;
  double v_perp = 0, v_axial = 0, speed = 0;  ///< means over the selected particles, m/s (NaN if none)
};

/// Particles of one instant in the surface layer of `fit` (see the file comment).
SurfaceLayer surface_layer(const SectionFrame& frame, const SurfaceFit& fit, std::span<const Vec3> position,
                           std::span<const Vec3> velocity, double layer, double theta3_deg, double theta4_deg);

struct PlugZone {
  double plug_fraction = 0;      ///< bed mass share co-rotating within the tolerance
  double shear_axial_share = 0;  ///< share of the bed's axial momentum outside the plug
};

/// From time-averaged fields; `velocity` as SectionFields::velocity() (e1, e2, e3 components).
PlugZone plug_zone(const SectionGrid& grid, const std::vector<double>& density, const std::vector<Vec3>& velocity,
                   double threshold, double omega, double plug_tolerance);

}  // namespace grainlab
