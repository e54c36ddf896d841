#pragma once
// Per-step flow measures of a rotating drum (Paper IV Sec. 4.3, 000 l.1693-1713; ledger E3, P13):
//
// - plug fraction N_plug / N_p: particles with v_r = |v - Omega x r| / (R |Omega|) <= threshold, r the
//   position relative to the drum centre (its axial part drops out of Omega x r), R = probe.radius, the
//   drum radius D/2. Rigid co-rotation is Omega x r; the paper prints |v - r x Omega| (000 l.1693), which
//   would measure the speed relative to the counter-rotating field (ledger P13).
// - dynamic angle theta' from the centre of mass: drum_frame(probe, position, mass).tilt
//   (experiments/drum_bed.hpp), the angle between gravity and the line from the axis to the material
//   centre of mass in the cross-section. For a flat free surface it equals the surface inclination (the
//   centroid of a circular segment lies on the radius normal to its chord).
// - surface angle, for comparison (000 l.1713: the centre of mass "is more robust than tracking the
//   surface"): in the bed frame (u from the axis towards the centre of mass, t = axis x u along the
//   surface) the particles are binned by a = (x - c) . t into bins of `bin_width` over |a| <= half_width;
//   each bin's surface is its topmost particle, min over the bin of (x - c) . u - r; a least-squares line
//   s = s0 + k a through the bin centres gives the surface normal u - k t, and the angle is that normal's
//   angle to gravity. NaN with fewer than 3 occupied bins.
// Threading: pure functions.
#include <span>

#include "core/math.hpp"
#include "experiments/drum_bed.hpp"

namespace grainlab {

/// Fraction of the particles whose v_r <= threshold; NaN without particles or with omega = 0.
/// `printed_sign`: v_r as printed, |v - r x Omega| = |v + Omega x r| (ledger P13), for comparison only.
double plug_fraction(const DrumProbe& probe, std::span<const Vec3> position, std::span<const Vec3> velocity,
                     double threshold, bool printed_sign = false);

/// The surface-fit angle (rad) described above, for the frame of the same positions.
double surface_angle(const DrumProbe& probe, const DrumFrame& frame, std::span<const Vec3> position,
                     std::span<const double> radius, double bin_width, double half_width);

}  // namespace grainlab
