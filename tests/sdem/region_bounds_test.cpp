// The region bounds of the SDEM stepper's fused force stage (core/sdem/region_bounds.hpp) against splits
// computed by hand.
#include <boost/test/unit_test.hpp>

#include <vector>

#include "core/sdem/region_bounds.hpp"

using grainlab::sdem::balanced_region_bounds;
using Bounds = std::vector<std::size_t>;

BOOST_AUTO_TEST_CASE(region_bounds_split_the_measured_time_half_way) {
  const std::vector<std::uint32_t> blocks{0, 1000, 2000, 3000, 4000};
  // No measurement yet: equal particle counts.
  BOOST_TEST(balanced_region_bounds(4000, 2, blocks, {}, {}) == (Bounds{0, 2000, 4000}));
  // The first block three times as dear: half the time (3 of 6) ends with it, at particle 1000; the bound
  // moves half way there from 2000.
  BOOST_TEST(balanced_region_bounds(4000, 2, blocks, {3, 1, 1, 1}, {0, 2000, 4000}) == (Bounds{0, 1500, 4000}));
  // Balanced already: the bounds stay.
  BOOST_TEST(balanced_region_bounds(4000, 2, blocks, {1, 1, 1, 1}, {0, 2000, 4000}) == (Bounds{0, 2000, 4000}));
  // Three regions, the last block dearest (total 6): thirds of the time end at particle 2000 and a third
  // into the last block (3333.3); half way from 1333 and 2666 (rounded down).
  BOOST_TEST(balanced_region_bounds(4000, 3, blocks, {1, 1, 1, 3}, {0, 1333, 2666, 4000}) == (Bounds{0, 1666, 2999, 4000}));
  // A measurement of other particles (the count changed) or of a block that took no time: equal counts.
  BOOST_TEST(balanced_region_bounds(5000, 2, blocks, {3, 1, 1, 1}, {0, 2000, 4000}) == (Bounds{0, 2500, 5000}));
  BOOST_TEST(balanced_region_bounds(4000, 2, blocks, {3, 0, 1, 1}, {0, 2000, 4000}) == (Bounds{0, 2000, 4000}));
}

// With a fixed cost per particle (the first quarter three times as dear), repeated schedules approach the
// balance point (particle 1000 of 4000 splits the cost in half) geometrically, without overshooting it.
BOOST_AUTO_TEST_CASE(region_bounds_converge_without_swinging) {
  auto cost = [](std::size_t i) { return i < 1000 ? 3.0 : 1.0; };
  Bounds bounds{0, 2000, 4000};
  std::size_t previous_gap = 1000;
  for (int schedule = 0; schedule < 12; ++schedule) {
    // Blocks of 500 particles cut at the region bound, as the stepper cuts them.
    std::vector<std::uint32_t> blocks{0};
    for (std::size_t r = 0; r < 2; ++r)
      for (std::size_t i = bounds[r]; i < bounds[r + 1];) blocks.push_back(std::uint32_t(i = std::min(bounds[r + 1], i + 500)));
    std::vector<double> seconds;
    for (std::size_t b = 0; b + 1 < blocks.size(); ++b) {
      double t = 0;
      for (std::size_t i = blocks[b]; i < blocks[b + 1]; ++i) t += cost(i);
      seconds.push_back(t);
    }
    bounds = balanced_region_bounds(4000, 2, blocks, seconds, bounds);
    BOOST_TEST(bounds[1] >= 1000u);  // from above, never past the balance point
    const std::size_t gap = bounds[1] - 1000;
    BOOST_TEST(gap <= previous_gap / 2 + 1);
    previous_gap = gap;
  }
  BOOST_TEST(previous_gap <= 1u);
}
