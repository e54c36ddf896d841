#include "core/mbd/hopper.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab::mbd {

double HopperGeometry::funnel_height() const {
  const double run = 0.5 * (width - orifice), a = angle_deg * std::numbers::pi / 180;
  return angle_from_horizontal ? run * std::tan(a) : run / std::tan(a);
}

HopperSegments add_hopper_walls(MbdSystem& system, const HopperGeometry& g) {
  if (!(g.width > 0) || !(g.orifice > 0) || g.orifice >= g.width)
    throw InputError(fmt::format("hopper: orifice = {} must be in (0, width = {})", g.orifice, g.width));
  if (!(g.angle_deg > 0 && g.angle_deg < 90)) throw InputError("hopper: angle_deg must be in (0, 90)");
  const double hf = g.funnel_height();
  if (hf >= g.height) throw InputError(fmt::format("hopper: the funnel ({:.3f} m) is taller than height", hf));
  HopperSegments s;
  s.walls.push_back(system.add_segment({0, hf}, {0, g.height}));
  s.walls.push_back(system.add_segment({g.width, hf}, {g.width, g.height}));
  s.walls.push_back(system.add_segment({g.orifice_left(), 0}, {0, hf}));
  s.walls.push_back(system.add_segment({g.orifice_right(), 0}, {g.width, hf}));
  s.closure = system.add_segment({g.orifice_left(), 0}, {g.orifice_right(), 0});
  return s;
}

double fill_hopper(MbdSystem& system, const HopperGeometry& g, const HopperFill& f) {
  if (f.disks < 1) throw InputError("hopper: disks must be >= 1");
  if (f.radius_sd_fraction < 0 || f.radius_sd_fraction > 0.3) throw InputError("hopper: radius_sd_fraction must be in [0, 0.3]");
  std::mt19937_64 rng(f.seed);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::vector<double> radii(f.disks);
  for (double& r : radii) {
    double z = 0;
    if (f.radius_sd_fraction > 0) do z = normal(rng); while (std::abs(z) > 3);
    r = f.radius_mean * (1 + f.radius_sd_fraction * z);
  }
  const double rmax = *std::max_element(radii.begin(), radii.end());
  const double pitch = 2 * rmax * f.spacing, row = pitch * std::sqrt(3.0) / 2, jitter = 0.2 * rmax * (f.spacing - 1);
  auto fits = [&](const Vec2& c, double r) {
    if (c.x() < r || c.x() > g.width - r) return false;
    // Above both funnel walls (inside the hopper), not in the dead space beside the funnel.
    const double hf = g.funnel_height(), xl = g.orifice_left(), xr = g.orifice_right();
    if (c.x() < xl && c.y() < hf * (xl - c.x()) / xl) return false;
    if (c.x() > xr && c.y() < hf * (c.x() - xr) / (g.width - xr)) return false;
    if (c.y() < r) return false;
    for (const Segment& s : system.segments())
      if ((s.closest(c) - c).norm() < r * f.spacing) return false;
    return true;
  };
  int placed = 0;
  for (int k = 0; placed < f.disks; ++k) {
    const double y = rmax * f.spacing + k * row;
    if (y + rmax > 2 * g.height) throw InputError(fmt::format("hopper: only {} of {} disks fit below twice the height {}", placed, f.disks, g.height));
    for (double x = rmax + (k % 2) * 0.5 * pitch; x < g.width && placed < f.disks; x += pitch) {
      const Vec2 c(x + jitter * unit(rng), y);
      const double r = radii[placed];
      if (!fits(c, r)) continue;
      system.add_disk(c, r, f.areal_density * std::numbers::pi * r * r);
      ++placed;
    }
  }
  const double start = system.time();
  const int check = std::max(1, int(0.01 / system.settings().step));
  while (system.time() - start < f.settle_time_max) {
    for (int i = 0; i < check; ++i) system.step();
    double vmax = 0;
    for (const Disk& d : system.disks())
      if (d.active) vmax = std::max(vmax, d.v.norm());
    if (vmax < f.settle_speed && system.time() - start > 0.05) break;
  }
  return system.time() - start;
}

}  // namespace grainlab::mbd
