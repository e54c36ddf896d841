#pragma once
// Filling a region with particles at set-up time.
//
// lattice_fill: simple cubic lattice of equal spheres in a box, sites `spacing` apart, each displaced
//   by a uniform random offset in [-jitter, jitter]^3 (seeded). jitter <= (spacing - 2 radius) / 2
//   guarantees no overlaps between the new spheres, and the lattice is inset so that displaced
//   spheres stay inside the box. Sites where a sphere would overlap an existing particle are skipped
//   (counted in FillResult::skipped). Optional: `clip` keeps only the sites whose displaced sphere lies
//   entirely inside a region (e.g. a cylinder container inside the box; clipped sites are not counted as
//   skipped), and `max_count` > 0 stops after that many spheres (the lattice fills bottom layer first:
//   z outermost, then y, then x), so "N_p spheres in a cylinder" is a box around it plus a clip.
//
// random_fill: random sequential insertion of non-overlapping spheres into a box or cylinder, until
//   `count` particles or the `volume_fraction` (sum of sphere volumes / region volume) is reached.
//   Radii are drawn from the distribution first, sorted largest first (big spheres are hardest to
//   place), then each is placed at a uniform random centre, retried up to `max_attempts` times, with
//   overlap tests against a cell grid (OccupancyGrid) holding the new and the existing particles.
//   When a sphere cannot be placed the fill throws InputError naming count/volume_fraction and
//   nothing is added to the World. Random sequential insertion jams at a volume fraction of 0.38 for
//   equal spheres (asymptotically); in practice the default 1e5 tries per sphere reach about 0.33 in a
//   box (1e3 tries stop near 0.27). Denser packings need a lattice or a settling run.
//
// Both add spheres with World::add_sphere (which invalidates the contact detector), in placement
// order, with the given material and initial velocity, and are deterministic for a given seed
// (core/sources/source_rng.hpp). Threading: serial.
#include <cstdint>
#include <cstddef>
#include <optional>

#include "core/sources/radius_distribution.hpp"
#include "core/sources/region.hpp"
#include "core/world.hpp"

namespace grainlab::sources {

struct FillResult {
  std::size_t first = 0;    ///< index of the first particle added
  std::size_t added = 0;    ///< particles added (indices first .. first + added - 1)
  std::size_t skipped = 0;  ///< lattice sites skipped because an existing particle was in the way
  double volume_fraction = 0;  ///< volume of the added spheres / region volume
};

struct LatticeFill {
  BoxRegion region;
  double radius = 0.005;   ///< m
  double spacing = 0.01;   ///< centre distance between neighbouring sites, m (>= 2 radius)
  double jitter = 0;       ///< maximum displacement per axis, m (<= (spacing - 2 radius) / 2)
  std::uint16_t material = 0;
  Vec3 velocity = Vec3::Zero();
  std::uint64_t seed = 1;
  std::optional<Region> clip;  ///< only sites whose sphere lies entirely inside (none: the whole box)
  std::size_t max_count = 0;   ///< stop after this many spheres (0: every site)
};

FillResult lattice_fill(World& world, const LatticeFill& fill);

struct RandomFill {
  Region region = BoxRegion{};
  RadiusDistribution radii;
  std::size_t count = 0;        ///< number of particles; exactly one of count / volume_fraction is > 0
  double volume_fraction = 0;   ///< target solid fraction of the region, (0, 0.64]
  std::uint16_t material = 0;
  Vec3 velocity = Vec3::Zero();
  std::uint64_t seed = 1;
  std::size_t max_attempts = 100000;  ///< tries per particle before giving up (a try costs ~50 ns)
};

FillResult random_fill(World& world, const RandomFill& fill);

}  // namespace grainlab::sources
