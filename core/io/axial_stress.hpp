#pragma once
// Pressure profiles of a vertical container (Paper I 000 l.598, 612; ledger paper1.md E2 and P19):
//
// axial_stress_zz: the vertical stress sigma_zz coarse-grained from the contact forces (the contact part
//   of the Goldhirsch / Weinhart coarse-grained stress; the kinetic part rho v v is left out, so use it
//   for packings at rest) in slices of a central cylinder of radius R_c around a vertical axis:
//     sigma_zz(z) = (1/A) sum_c f_z b_z int_0^1 chi(x_from + s b) G_w(z - z(s)) ds,   A = pi R_c^2,
//   b = x_to - x_from the branch vector, f the force on the body at x_to (compression: f.b > 0, so
//   sigma_zz > 0 is compressive), chi = 1 inside the cylinder radially, G_w a unit Gaussian of standard
//   deviation w (w = 0: no smoothing). Slice k is the mean of sigma_zz(z) over [z0 + k dz, z0 + (k+1) dz],
//   i.e. the kernel is a top hat of width dz convolved with G_w. Both integrals are exact (closed form
//   of the integral of the normal CDF; the radial cut is where the branch crosses the cylinder).
//   A resting column carries its weight: sigma_zz A in a slice equals the weight above its middle
//   (tests/io/axial_stress_test.cpp), and the slices together hold the virial sum f_z b_z.
//
// contact_branches: the branches of a World's active contacts (overlap > 0): particle pairs from b to a,
//   wall contacts from the contact point to the particle centre; the force is Contact::force (on a).
//
// wall_strip_pressure: the mean normal pressure on horizontal strips [z0 + k dz, z0 + (k+1) dz) of one
//   wall: sum of the normal force of its contacts whose contact point lies in the strip, divided by
//   strip_area (the wall's area per strip, given by the caller: perimeter x dz).
//
// Pure functions of their inputs. contact_branches and wall_strip_pressure read the contact records:
// after an SDEM step, call World::sync_contacts() first.
#include <span>
#include <vector>

#include "core/math.hpp"
#include "core/world.hpp"

namespace grainlab::io {

struct Branch {
  Vec3 from = Vec3::Zero();
  Vec3 to = Vec3::Zero();
  Vec3 force = Vec3::Zero();  ///< on the body at `to`, N
};

struct AxialSlices {
  Vec3 axis_point = Vec3::Zero();  ///< a point of the vertical axis (its x, y are used)
  double radius = 0.015;           ///< R_c, m (> 0)
  double z0 = 0;                   ///< bottom of slice 0, m
  double slice_height = 0.05;      ///< dz, m (> 0)
  int slices = 1;                  ///< >= 1
  double kernel_width = 0;         ///< w, standard deviation of the Gaussian in z, m (>= 0)
};

/// sigma_zz per slice, Pa (compressive > 0). InputError naming the field on invalid settings.
std::vector<double> axial_stress_zz(std::span<const Branch> branches, const AxialSlices& s);

std::vector<Branch> contact_branches(const World& world);

/// Mean normal pressure per strip, Pa. InputError on slice_height, slices or strip_area <= 0.
std::vector<double> wall_strip_pressure(const World& world, int wall, double z0, double slice_height, int slices,
                                        double strip_area);

}  // namespace grainlab::io
