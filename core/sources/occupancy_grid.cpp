#include "core/sources/occupancy_grid.hpp"

#include <algorithm>
#include <cmath>

namespace grainlab::sources {

OccupancyGrid::OccupancyGrid(const Vec3& lo, const Vec3& hi, double min_cell, std::size_t max_cells)
    : lo_(lo), cell_(min_cell) {
  const Vec3 extent = (hi - lo).cwiseMax(Vec3::Zero());
  auto count = [&] {
    std::size_t total = 1;
    for (int k = 0; k < 3; ++k) {
      dims_[k] = std::max(1, int(std::floor(extent[k] / cell_)) + 1);
      total *= std::size_t(dims_[k]);
    }
    return total;
  };
  while (count() > max_cells) cell_ *= 1.25;
  head_.assign(std::size_t(dims_[0]) * dims_[1] * dims_[2], -1);
}

Eigen::Array3i OccupancyGrid::cell_of(const Vec3& x) const {
  Eigen::Array3i c;
  for (int k = 0; k < 3; ++k) c[k] = std::clamp(int(std::floor((x[k] - lo_[k]) / cell_)), 0, dims_[k] - 1);
  return c;
}

void OccupancyGrid::insert(const Vec3& c, double r) {
  const std::size_t cell = linear(cell_of(c));
  next_.push_back(head_[cell]);
  head_[cell] = std::int32_t(centre_.size());
  centre_.push_back(c);
  radius_.push_back(r);
}

bool OccupancyGrid::overlaps(const Vec3& c, double r, double tolerance) const {
  const Eigen::Array3i ci = cell_of(c);
  const Eigen::Array3i from = (ci - 1).max(0), to = (ci + 1).min(dims_ - 1);
  for (int z = from[2]; z <= to[2]; ++z)
    for (int y = from[1]; y <= to[1]; ++y)
      for (int x = from[0]; x <= to[0]; ++x)
        for (std::int32_t j = head_[linear({x, y, z})]; j >= 0; j = next_[std::size_t(j)]) {
          const double reach = r + radius_[std::size_t(j)] - tolerance;
          if ((c - centre_[std::size_t(j)]).squaredNorm() < reach * reach) return true;
        }
  return false;
}

}  // namespace grainlab::sources
