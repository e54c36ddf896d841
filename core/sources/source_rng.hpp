#pragma once
// Random numbers for particle sources: std::mt19937_64 (fully specified by the C++ standard) with our
// own uniform and normal transforms, because std::uniform_real_distribution / normal_distribution
// differ between standard libraries. Same seed => same numbers on every platform and thread count.
// Threading: one generator per source, used serially.
#include <cmath>
#include <cstdint>
#include <random>

#include "core/math.hpp"

namespace grainlab::sources {

class SourceRng {
 public:
  explicit SourceRng(std::uint64_t seed) : engine_(seed) {}
  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return double(engine_() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  /// Standard normal by the Box-Muller transform (one value per call, no cached pair).
  double normal() {
    const double u1 = 1.0 - uniform();  // (0, 1]
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * pi * u2);
  }
  std::mt19937_64& engine() { return engine_; }
  const std::mt19937_64& engine() const { return engine_; }

 private:
  std::mt19937_64 engine_;
};

}  // namespace grainlab::sources
