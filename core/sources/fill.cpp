// Set-up fills (see fill.hpp): lattice with perturbation and random sequential insertion.
#include "core/sources/fill.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/sources/occupancy_grid.hpp"
#include "core/sources/world_neighbours.hpp"

namespace grainlab::sources {

namespace {

void check_material(const World& world, std::uint16_t material, const char* context) {
  if (material >= world.materials.size())
    throw InputError(fmt::format("{}: material = {} does not exist ({} materials defined)", context, material,
                                 world.materials.size()));
}

void check_velocity(const Vec3& v, const char* context) {
  if (!v.allFinite()) throw InputError(fmt::format("{}: velocity is not finite", context));
}

double sphere_volume(double r) { return 4.0 / 3.0 * pi * r * r * r; }

}  // namespace

FillResult lattice_fill(World& world, const LatticeFill& f) {
  const char* ctx = "lattice fill";
  validate(Region(f.region), ctx);
  check_material(world, f.material, ctx);
  check_velocity(f.velocity, ctx);
  if (!std::isfinite(f.radius) || f.radius <= 0) throw InputError(fmt::format("{}: radius = {} is invalid (must be > 0)", ctx, f.radius));
  if (!std::isfinite(f.spacing) || f.spacing < 2 * f.radius)
    throw InputError(fmt::format("{}: spacing = {} is invalid (must be >= 2 radius = {})", ctx, f.spacing, 2 * f.radius));
  const double max_jitter = 0.5 * (f.spacing - 2 * f.radius);
  if (!std::isfinite(f.jitter) || f.jitter < 0 || f.jitter > max_jitter)
    throw InputError(fmt::format("{}: jitter = {} is invalid (must be in [0, (spacing - 2 radius)/2 = {}] so spheres cannot overlap)",
                                 ctx, f.jitter, max_jitter));
  const double inset = f.radius + f.jitter;
  Eigen::Array3i n;
  for (int k = 0; k < 3; ++k) {
    const double room = f.region.hi[k] - f.region.lo[k] - 2 * inset;
    n[k] = room < 0 ? 0 : int(std::floor(room / f.spacing * (1 + 1e-12))) + 1;
  }
  if (f.clip) validate(*f.clip, ctx);
  if ((n == 0).any())
    throw InputError(fmt::format("{}: region is too small for one sphere of radius {} with jitter {}", ctx, f.radius, f.jitter));

  OccupancyGrid existing = neighbours_in(world, bounds(Region(f.region)), f.radius);
  SourceRng rng(f.seed);
  FillResult result;
  result.first = world.particles.size();
  for (int z = 0; z < n[2]; ++z)
    for (int y = 0; y < n[1]; ++y)
      for (int x = 0; x < n[0]; ++x) {
        Vec3 c = f.region.lo + Vec3(inset + x * f.spacing, inset + y * f.spacing, inset + z * f.spacing);
        for (int k = 0; k < 3; ++k) c[k] += f.jitter * (2 * rng.uniform() - 1);  // drawn for every site: deterministic
        if (f.max_count > 0 && result.added == f.max_count) continue;
        if (f.clip && !contains_sphere(*f.clip, c, f.radius)) continue;
        if (existing.overlaps(c, f.radius)) {
          ++result.skipped;
          continue;
        }
        world.add_sphere(c, f.radius, f.material, f.velocity);
        ++result.added;
      }
  result.volume_fraction = double(result.added) * sphere_volume(f.radius) / volume(f.clip ? *f.clip : Region(f.region));
  return result;
}

FillResult random_fill(World& world, const RandomFill& f) {
  const char* ctx = "random fill";
  validate(f.region, ctx);
  f.radii.validate(ctx);
  check_material(world, f.material, ctx);
  check_velocity(f.velocity, ctx);
  if ((f.count > 0) == (f.volume_fraction > 0))
    throw InputError(fmt::format("{}: give exactly one of count (= {}) and volume_fraction (= {})", ctx, f.count, f.volume_fraction));
  // No random packing of spheres exceeds random close packing (~0.64); random insertion stops near 0.38.
  constexpr double packing_limit = 0.64;
  const double region_volume = volume(f.region);
  if (f.volume_fraction > 0 && (!std::isfinite(f.volume_fraction) || f.volume_fraction > packing_limit))
    throw InputError(fmt::format("{}: volume_fraction = {} is impossible (must be in (0, {}], and random insertion "
                                 "jams near 0.38)",
                                 ctx, f.volume_fraction, packing_limit));
  if (f.max_attempts == 0) throw InputError(fmt::format("{}: max_attempts = 0 is invalid (must be >= 1)", ctx));
  if (!fits(f.region, f.radii.largest()))
    throw InputError(fmt::format("{}: the region is too small for a sphere of the largest radius {}", ctx, f.radii.largest()));
  if (f.count > 0 && double(f.count) * sphere_volume(f.radii.smallest()) > packing_limit * region_volume)
    throw InputError(fmt::format("{}: count = {} is impossible: even spheres of the smallest radius {} would fill {:.3g} "
                                 "of the region (limit {})",
                                 ctx, f.count, f.radii.smallest(),
                                 double(f.count) * sphere_volume(f.radii.smallest()) / region_volume, packing_limit));

  SourceRng rng(f.seed);
  std::vector<double> radii;
  if (f.count > 0) {
    radii.reserve(f.count);
    for (std::size_t i = 0; i < f.count; ++i) radii.push_back(f.radii.sample(rng));
  } else {
    const double target = f.volume_fraction * region_volume;
    double total = 0;
    while (total < target) {
      radii.push_back(f.radii.sample(rng));
      total += sphere_volume(radii.back());
    }
  }
  std::stable_sort(radii.begin(), radii.end(), std::greater<double>());

  const BoxRegion box = bounds(f.region);
  OccupancyGrid grid = neighbours_in(world, box, radii.empty() ? 0.0 : radii.front());
  std::vector<Vec3> centres;
  centres.reserve(radii.size());
  double placed_volume = 0;
  for (std::size_t i = 0; i < radii.size(); ++i) {
    const double r = radii[i];
    bool placed = false;
    for (std::size_t attempt = 0; attempt < f.max_attempts && !placed; ++attempt) {
      const Vec3 c = sample_center(f.region, r, rng);
      if (grid.overlaps(c, r)) continue;
      grid.insert(c, r);
      centres.push_back(c);
      placed_volume += sphere_volume(r);
      placed = true;
    }
    if (!placed)
      throw InputError(fmt::format("{}: {} = {} cannot be reached: placed {} of {} spheres (volume fraction {:.3f}) before "
                                   "sphere {} (radius {}) found no free spot in max_attempts = {} tries; lower {}, enlarge "
                                   "the region or raise max_attempts",
                                   ctx, f.count > 0 ? "count" : "volume_fraction",
                                   f.count > 0 ? double(f.count) : f.volume_fraction, i, radii.size(),
                                   placed_volume / region_volume, i + 1, r, f.max_attempts,
                                   f.count > 0 ? "count" : "volume_fraction"));
  }
  FillResult result;
  result.first = world.particles.size();
  world.particles.reserve(world.particles.size() + centres.size());
  for (std::size_t i = 0; i < centres.size(); ++i) world.add_sphere(centres[i], radii[i], f.material, f.velocity);
  result.added = centres.size();
  result.volume_fraction = placed_volume / region_volume;
  return result;
}

}  // namespace grainlab::sources
