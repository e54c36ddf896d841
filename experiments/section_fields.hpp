#pragma once
// Coarse-grained mass-density and velocity fields in a cross-section of a slice (Paper III Sec. 6.2,
// 000 l.1374: "coarse graining on a grid with mesh size of 1d", Fig. 15; ledger E6).
//
// Section frame: origin o (on the drum axis), unit in-plane axes e1 (horizontal) and e2 (vertical, up),
// unit axis e3 = e1 x e2 (along the slice). A particle at x has section coordinates a = (x - o).e1,
// b = (x - o).e2 (its axial coordinate drops out: the slice is averaged over its whole length `depth`).
// Grid: nodes at (a_lo + i h, b_lo + j h), i < na, j < nb, h = the cell size. Assignment: cloud in cell
// (bilinear weights to the four nodes around the centre), so the mass on the grid is exactly the mass of
// the particles inside it and a particle moving by less than h changes the field continuously.
// Node density rho = sum w m / (h^2 depth samples); node velocity = sum w m v / sum w m (components v1,
// v2 in the section, v3 along e3); NaN where no mass fell.
// Threading: serial, pure (one accumulator per caller).
#include <cstddef>
#include <span>
#include <vector>

#include "core/math.hpp"

namespace grainlab {

struct SectionFrame {
  Vec3 origin = Vec3::Zero();
  Vec3 e1 = Vec3::UnitX();  ///< unit, horizontal in the section
  Vec3 e2 = Vec3::UnitZ();  ///< unit, vertical (up) in the section
  Vec3 e3() const { return e1.cross(e2); }
};

struct SectionGrid {
  double cell = 0.0127;          ///< h, m (> 0)
  double a_lo = 0, b_lo = 0;     ///< node (0, 0), m
  int na = 1, nb = 1;            ///< nodes per direction (>= 2)
  double depth = 0.05;           ///< slice length along e3, m (> 0)
  std::size_t index(int i, int j) const { return std::size_t(j) * std::size_t(na) + std::size_t(i); }
  double a(int i) const { return a_lo + i * cell; }
  double b(int j) const { return b_lo + j * cell; }
};

/// Square grid covering the disc of `radius` about the origin (plus one cell) with cell size `cell`.
/// Throws InputError for a non-positive cell, radius or depth.
SectionGrid disc_grid(double radius, double cell, double depth);

/// Sums over samples (add_sample), then finished into fields (density(), velocity()).
class SectionFields {
 public:
  explicit SectionFields(const SectionGrid& grid);
  /// Adds one sample of the particles (positions, velocities, masses: equal sizes). Mass outside the grid is
  /// counted in outside_mass() and ignored.
  void add_sample(const SectionFrame& frame, std::span<const Vec3> position, std::span<const Vec3> velocity,
                  std::span<const double> mass);
  const SectionGrid& grid() const { return grid_; }
  int samples() const { return samples_; }
  double outside_mass() const { return outside_; }
  /// Mass density at each node, kg/m^3 (mean over the samples).
  std::vector<double> density() const;
  /// Mass-weighted velocity at each node (e1, e2, e3 components); NaN where no mass fell.
  std::vector<Vec3> velocity() const;
  /// Total mass assigned to the nodes, summed over samples (kg), for checks.
  double grid_mass() const;
  void clear();

 private:
  SectionGrid grid_;
  std::vector<double> mass_;
  std::vector<Vec3> momentum_;
  double outside_ = 0;
  int samples_ = 0;
};

/// Density interpolated bilinearly at (a, b) from node values; 0 outside the grid.
double interpolate(const SectionGrid& grid, const std::vector<double>& node_values, double a, double b);

/// The mass-weighted median of the node densities (half the grid mass sits at nodes at least this dense):
/// the bulk density of a bed, insensitive to the dilute surface and to the empty part of the grid.
/// 0 for an empty field.
double bulk_density(const std::vector<double>& density);

}  // namespace grainlab
