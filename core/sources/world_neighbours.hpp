#pragma once
// The World's particles that a new sphere of radius up to `r_new` placed inside `box` could touch,
// loaded into an OccupancyGrid over the box (cell >= 2 r_new and >= r_new + the largest such
// particle's radius), ready for more insertions. O(N) scan of the World, serial.
#include "core/sources/occupancy_grid.hpp"
#include "core/sources/region.hpp"
#include "core/world.hpp"

namespace grainlab::sources {

inline OccupancyGrid neighbours_in(const World& world, const BoxRegion& box, double r_new) {
  const ParticleStore& p = world.particles;
  std::vector<std::size_t> near;
  double r_max = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double reach = p.radius[i] + r_new;
    if (((p.position[i].array() + reach) > box.lo.array()).all() && ((p.position[i].array() - reach) < box.hi.array()).all()) {
      near.push_back(i);
      r_max = std::max(r_max, p.radius[i]);
    }
  }
  OccupancyGrid grid(box.lo, box.hi, std::max({2 * r_new, r_new + r_max, 1e-12}));
  for (std::size_t i : near) grid.insert(p.position[i], p.radius[i]);
  return grid;
}

}  // namespace grainlab::sources
