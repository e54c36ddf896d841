#include "experiments/discharge_plane.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab {

void record_crossings(const ParticleStore& particles, double plane_z, double dt, double time,
                      std::vector<DischargeCrossing>& out) {
  for (std::size_t i = 0; i < particles.size(); ++i) {
    const Vec3& x = particles.position[i];
    if (!(x.z() < plane_z)) continue;
    const Vec3& v = particles.velocity[i];
    const Vec3 before = x - dt * v;
    if (!(before.z() >= plane_z)) continue;
    // Straight path before -> x; the fraction of it travelled when the plane is reached.
    const double s = (before.z() - plane_z) / (before.z() - x.z());
    const Vec3 at = before + s * (x - before);
    out.push_back({time, at.x(), at.y()});
  }
}

DischargeDistribution discharge_distribution(const std::vector<DischargeCrossing>& crossings, double t_from,
                                             double t_to, const DischargeGrid& grid) {
  if (!(grid.cell > 0)) throw InputError(fmt::format("discharge grid: cell = {} m must be > 0", grid.cell));
  if (grid.nx < 1 || grid.ny < 1)
    throw InputError(fmt::format("discharge grid: nx = {}, ny = {} must be >= 1", grid.nx, grid.ny));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  DischargeDistribution d;
  d.histogram.assign(std::size_t(grid.nx) * std::size_t(grid.ny), 0.0);
  double sx = 0, sy = 0;
  for (const auto& c : crossings) {
    if (c.time < t_from || c.time > t_to) continue;
    ++d.count;
    sx += c.x;
    sy += c.y;
    const double fx = std::floor((c.x - grid.x_lo) / grid.cell), fy = std::floor((c.y - grid.y_lo) / grid.cell);
    if (fx < 0 || fy < 0 || fx >= grid.nx || fy >= grid.ny)
      d.outside += 1;
    else
      d.histogram[std::size_t(fx) * std::size_t(grid.ny) + std::size_t(fy)] += 1;
  }
  if (d.count == 0) {
    d.x_c = d.y_c = d.sd_x = d.sd_y = nan;
    return d;
  }
  const double n = double(d.count);
  d.x_c = sx / n;
  d.y_c = sy / n;
  double vx = 0, vy = 0;
  for (const auto& c : crossings) {
    if (c.time < t_from || c.time > t_to) continue;
    vx += (c.x - d.x_c) * (c.x - d.x_c);
    vy += (c.y - d.y_c) * (c.y - d.y_c);
  }
  d.sd_x = d.count > 1 ? std::sqrt(vx / (n - 1)) : nan;
  d.sd_y = d.count > 1 ? std::sqrt(vy / (n - 1)) : nan;
  for (double& h : d.histogram) h /= n;
  d.outside /= n;
  return d;
}

double histogram_l1_distance(const DischargeDistribution& a, const DischargeDistribution& b) {
  if (a.histogram.size() != b.histogram.size())
    throw InputError(fmt::format("histogram_l1_distance: {} cells vs {} cells", a.histogram.size(), b.histogram.size()));
  double sum = std::abs(a.outside - b.outside);
  for (std::size_t i = 0; i < a.histogram.size(); ++i) sum += std::abs(a.histogram[i] - b.histogram[i]);
  return sum;
}

}  // namespace grainlab
