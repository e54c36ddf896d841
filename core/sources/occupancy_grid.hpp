#pragma once
// Uniform cell grid of spheres for the sources' overlap tests (rejection sampling): insert spheres,
// ask whether a new sphere would overlap any of them. Cells hold singly linked lists (head per cell,
// next per sphere), so insertion is O(1) and a query visits the 27 cells around the centre.
//
// Correctness needs cell >= r_a + r_b for every pair tested; the constructor takes the largest
// radius that will be queried and the largest radius that will be stored. Spheres outside the grid
// box are clamped into the boundary cells, which stays exact for spheres less than one cell outside
// (the sources only insert spheres that can reach into their region).
// Threading: not thread-safe; one grid per source call.
#include <cstdint>
#include <vector>

#include "core/math.hpp"

namespace grainlab::sources {

class OccupancyGrid {
 public:
  /// Grid over [lo, hi] with cells of at least `min_cell` (coarsened so that there are at most
  /// `max_cells` cells).
  OccupancyGrid(const Vec3& lo, const Vec3& hi, double min_cell, std::size_t max_cells = std::size_t(1) << 22);

  void insert(const Vec3& c, double r);
  /// True when a sphere (c, r) would overlap a stored sphere by more than `tolerance` (distance <
  /// r + r_j - tolerance).
  bool overlaps(const Vec3& c, double r, double tolerance = 0) const;
  std::size_t size() const { return centre_.size(); }

 private:
  Eigen::Array3i cell_of(const Vec3& x) const;
  std::size_t linear(const Eigen::Array3i& c) const {
    return std::size_t(c[0]) + std::size_t(dims_[0]) * (std::size_t(c[1]) + std::size_t(dims_[1]) * std::size_t(c[2]));
  }

  Vec3 lo_;
  double cell_;
  Eigen::Array3i dims_;
  std::vector<std::int32_t> head_;
  std::vector<std::int32_t> next_;
  std::vector<Vec3> centre_;
  std::vector<double> radius_;
};

}  // namespace grainlab::sources
