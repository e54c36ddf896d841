#pragma once
// Cross-section analysis of the bed in a rotating drum (Paper I Sec. 5.2, Figs. 8-9; ledger E3): the
// free-surface frame, a radial profile along z' and what follows from it (bed depth, mean radial
// thickness, plug-flow thickness, coarse-grained inertial number).
//
// Frame (ledger E3 "unspecified" defaults): u = unit vector from the drum axis towards the centroid of
// the particle centres, projected on the cross-section. For a bed shaped as a circular segment the
// centroid lies on the symmetry line, so u is the radius through the drum centre perpendicular to the
// free surface (Fig. 9's z' axis, pointing into the bed) and the surface tilt (the dynamic angle of
// repose) is the angle between u and gravity. x' = unit(omega_hat x u): the direction of rigid
// co-rotation along that radius, so rigid rotation is v_x' = omega s at distance s from the axis.
//
// Profile: particles whose centres lie in a strip |(x - c) . (axis x u)| <= strip_half_width (over the
// whole drum length) are binned by s = (x - c) . u into bins of bin_width from s = 0 outwards. Per bin:
// solid fraction (sphere volumes of the centres in the bin / bin volume), summed v_x', counts, and
// the contact pressure p = (1/3V) sum over pair contacts with the contact point in the bin of
// f . (x_a - x_b) (compression positive). Profiles add up over steps (accumulate, then finish).
//
// Derived (finish_profile):
// - surface s_f: scanning inwards from the outermost occupied bin, where the solid fraction first falls
//   below half the profile's largest solid fraction (linear interpolation between bin centres);
// - outer s_o: the mean over steps of the largest s + r in the strip (the bed's outer boundary);
// - depth = s_o - s_f (the maximal depth perpendicular to the free surface, on the symmetry line);
// - mean radial thickness l = segment area / chord, chord 2 sqrt(s_o^2 - s_f^2), area
//   s_o^2 acos(s_f/s_o) - s_f sqrt(s_o^2 - s_f^2) (ledger: "bed area / chord length");
// - plug thickness: from the outermost occupied bin inwards, the bins whose mean v_x' is within
//   `plug_tolerance` of omega s (bin centre), contiguous; thickness = s_o - inner edge of the last
//   such bin (NaN when omega = 0);
// - inertial number I = gamma_dot d / sqrt(p / rho) per bin inside the bed (bin centre in [s_f, s_o],
//   p > 0), gamma_dot = |s d(v/s)/ds| (the shear rate of the azimuthal flow: zero for rigid rotation),
//   by central differences; averaged over those bins weighted by their particle counts.
// Threading: serial, pure.
#include <cstddef>
#include <span>
#include <vector>

#include "core/contacts.hpp"
#include "core/math.hpp"

namespace grainlab {

struct DrumProbe {
  Vec3 centre = Vec3::Zero();
  Vec3 axis = Vec3::UnitY();      ///< unit drum axis
  Vec3 down = -Vec3::UnitZ();     ///< unit direction of gravity, orthogonal to the axis
  double omega = 0;               ///< rad/s about +axis
  double length = 0.08;           ///< m, drum length (bin volumes)
  double radius = 0.4;            ///< m, the profile covers s in [0, radius + bin_width)
  double strip_half_width = 0.05; ///< m
  double bin_width = 0.01;        ///< m
  double plug_tolerance = 0.1;    ///< relative deviation from rigid rotation inside the plug zone
};

/// The bed frame at one instant.
struct DrumFrame {
  Vec3 u = Vec3::Zero();       ///< unit, from the axis towards the bed (z')
  Vec3 x = Vec3::Zero();       ///< unit, rigid co-rotation direction along z' (x')
  double tilt = 0;             ///< rad, angle between u and gravity (dynamic angle of repose)
  bool valid = false;          ///< false without particles or with the centroid on the axis
};

/// `weight` (optional, one per particle, e.g. the masses): the weighted centroid, the material centre of mass
/// of Paper IV E3 (000 l.1713) for a bi-disperse bed; empty = the plain centroid of the centres.
DrumFrame drum_frame(const DrumProbe& probe, std::span<const Vec3> position, std::span<const double> weight = {});

/// Sums over steps; bin k covers s in [k w, (k + 1) w).
struct DrumProfile {
  std::vector<double> volume;     ///< sphere volume of the centres in the bin, summed over steps
  std::vector<double> velocity;   ///< sum of v_x'
  std::vector<double> count;      ///< particle samples
  std::vector<double> virial;     ///< sum of f . (x_a - x_b) of the pair contacts in the bin
  double outer_sum = 0;           ///< sum over steps of max(s + r) in the strip
  double tilt_sum = 0;
  int samples = 0;                ///< steps accumulated
};

DrumProfile make_profile(const DrumProbe& probe);

/// Adds one step. `contacts` may be empty (no pressure then); only pair contacts count.
void accumulate_profile(const DrumProbe& probe, const DrumFrame& frame, std::span<const Vec3> position,
                        std::span<const Vec3> velocity, std::span<const double> radius,
                        std::span<const Contact> contacts, DrumProfile& profile);

struct DrumBed {
  std::vector<double> s;               ///< bin centres, m
  std::vector<double> solid_fraction;  ///< per bin
  std::vector<double> velocity;        ///< mean v_x' per bin, m/s (NaN where empty)
  std::vector<double> pressure;        ///< Pa
  double surface = 0, outer = 0;       ///< s_f, s_o (m)
  double depth = 0;                    ///< s_o - s_f, m
  double area = 0, chord = 0;          ///< m^2, m
  double thickness = 0;                ///< area / chord, m
  double plug = 0;                     ///< plug-zone thickness, m (NaN when omega = 0)
  double inertial_number = 0;          ///< count-weighted mean I over the bed bins (NaN if none)
  double tilt = 0;                     ///< rad, mean over the samples
};

/// `diameter` and `density`: particle d and rho of the inertial number.
DrumBed finish_profile(const DrumProbe& probe, const DrumProfile& profile, double diameter, double density);

/// Circular segment of radius R cut by a chord at distance s from the centre (|s| <= R): area and chord.
double segment_area(double R, double s);
double segment_chord(double R, double s);

}  // namespace grainlab
