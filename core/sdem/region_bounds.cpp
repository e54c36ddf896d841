#include "core/sdem/region_bounds.hpp"

#include <algorithm>
#include <numeric>

namespace grainlab::sdem {

std::vector<std::size_t> balanced_region_bounds(std::size_t np, std::size_t regions,
                                                const std::vector<std::uint32_t>& block_particle,
                                                const std::vector<double>& block_seconds,
                                                const std::vector<std::size_t>& last) {
  std::vector<std::size_t> bound(regions + 1);
  for (std::size_t r = 0; r <= regions; ++r) bound[r] = np * r / regions;
  const std::size_t blocks = block_seconds.size();
  const bool measured = last.size() == regions + 1 && last.back() == np && blocks > 0 &&
                        block_particle.size() == blocks + 1 && block_particle.back() == np &&
                        std::all_of(block_seconds.begin(), block_seconds.end(), [](double t) { return t > 0; });
  if (!measured) return bound;
  // Half way: the times carry the noise of other work on the machine, and a full step to the balance
  // point made the bounds of the 100k bed swing by +-4 % of its particles from one schedule to the next.
  const double total = std::accumulate(block_seconds.begin(), block_seconds.end(), 0.0);
  double before = 0;  // time of the blocks before b
  for (std::size_t r = 1, b = 0; r < regions; ++r) {
    const double target = total * double(r) / double(regions);
    while (b + 1 < blocks && before + block_seconds[b] < target) before += block_seconds[b++];
    const double part = std::clamp((target - before) / block_seconds[b], 0.0, 1.0);
    const double balanced = double(block_particle[b]) + part * double(block_particle[b + 1] - block_particle[b]);
    bound[r] = std::max(bound[r - 1], std::size_t(0.5 * (double(last[r]) + balanced)));
  }
  return bound;
}

}  // namespace grainlab::sdem
