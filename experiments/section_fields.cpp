// Coarse-grained section fields: see section_fields.hpp.
#include "experiments/section_fields.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab {

SectionGrid disc_grid(double radius, double cell, double depth) {
  if (!(cell > 0)) throw InputError(fmt::format("section grid: cell = {} m must be positive", cell));
  if (!(radius > 0)) throw InputError(fmt::format("section grid: radius = {} m must be positive", radius));
  if (!(depth > 0)) throw InputError(fmt::format("section grid: depth = {} m must be positive", depth));
  SectionGrid g;
  g.cell = cell;
  const int half = int(std::ceil(radius / cell)) + 1;
  g.a_lo = g.b_lo = -half * cell;
  g.na = g.nb = 2 * half + 1;
  g.depth = depth;
  return g;
}

SectionFields::SectionFields(const SectionGrid& grid) : grid_(grid) {
  if (grid.na < 2 || grid.nb < 2 || !(grid.cell > 0) || !(grid.depth > 0))
    throw InputError("section grid: needs at least 2 x 2 nodes, cell > 0 and depth > 0");
  clear();
}

void SectionFields::clear() {
  mass_.assign(std::size_t(grid_.na) * std::size_t(grid_.nb), 0.0);
  momentum_.assign(mass_.size(), Vec3::Zero());
  outside_ = 0;
  samples_ = 0;
}

void SectionFields::add_sample(const SectionFrame& frame, std::span<const Vec3> position,
                               std::span<const Vec3> velocity, std::span<const double> mass) {
  const Vec3 e3 = frame.e3();
  const double h = grid_.cell;
  for (std::size_t k = 0; k < position.size(); ++k) {
    const Vec3 d = position[k] - frame.origin;
    const double u = (d.dot(frame.e1) - grid_.a_lo) / h, w = (d.dot(frame.e2) - grid_.b_lo) / h;
    const int i = int(std::floor(u)), j = int(std::floor(w));
    if (i < 0 || j < 0 || i + 1 >= grid_.na || j + 1 >= grid_.nb) {
      outside_ += mass[k];
      continue;
    }
    const double fu = u - i, fw = w - j;
    const Vec3 v(velocity[k].dot(frame.e1), velocity[k].dot(frame.e2), velocity[k].dot(e3));
    const double weight[4] = {(1 - fu) * (1 - fw), fu * (1 - fw), (1 - fu) * fw, fu * fw};
    const std::size_t node[4] = {grid_.index(i, j), grid_.index(i + 1, j), grid_.index(i, j + 1),
                                 grid_.index(i + 1, j + 1)};
    for (int c = 0; c < 4; ++c) {
      mass_[node[c]] += weight[c] * mass[k];
      momentum_[node[c]] += weight[c] * mass[k] * v;
    }
  }
  ++samples_;
}

std::vector<double> SectionFields::density() const {
  std::vector<double> rho(mass_.size(), 0.0);
  if (samples_ == 0) return rho;
  const double volume = grid_.cell * grid_.cell * grid_.depth * samples_;
  for (std::size_t k = 0; k < rho.size(); ++k) rho[k] = mass_[k] / volume;
  return rho;
}

std::vector<Vec3> SectionFields::velocity() const {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<Vec3> v(mass_.size(), Vec3(nan, nan, nan));
  for (std::size_t k = 0; k < v.size(); ++k)
    if (mass_[k] > 0) v[k] = momentum_[k] / mass_[k];
  return v;
}

double SectionFields::grid_mass() const { return std::accumulate(mass_.begin(), mass_.end(), 0.0); }

double interpolate(const SectionGrid& g, const std::vector<double>& values, double a, double b) {
  const double u = (a - g.a_lo) / g.cell, w = (b - g.b_lo) / g.cell;
  const int i = int(std::floor(u)), j = int(std::floor(w));
  if (i < 0 || j < 0 || i + 1 >= g.na || j + 1 >= g.nb) return 0.0;
  const double fu = u - i, fw = w - j;
  return (1 - fu) * (1 - fw) * values[g.index(i, j)] + fu * (1 - fw) * values[g.index(i + 1, j)] +
         (1 - fu) * fw * values[g.index(i, j + 1)] + fu * fw * values[g.index(i + 1, j + 1)];
}

double bulk_density(const std::vector<double>& density) {
  std::vector<double> sorted;
  for (double r : density)
    if (r > 0) sorted.push_back(r);
  if (sorted.empty()) return 0.0;
  std::sort(sorted.begin(), sorted.end());
  const double total = std::accumulate(sorted.begin(), sorted.end(), 0.0);
  double below = 0;  // mass (proportional to density: equal node areas) at nodes less dense than sorted[k]
  for (double r : sorted) {
    below += r;
    if (below >= 0.5 * total) return r;
  }
  return sorted.back();
}

}  // namespace grainlab
