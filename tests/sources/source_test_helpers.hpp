#pragma once
// Helpers shared by the particle-source tests.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <functional>
#include <string>

#include "core/error.hpp"
#include "core/world.hpp"

namespace grainlab::test {

inline World one_material_world() {
  World w;
  w.add_material(Material{});
  return w;
}

/// Largest pairwise overlap among all particles (brute force, O(N^2)); negative when none touch.
inline double max_overlap(const World& w) {
  const auto& p = w.particles;
  double worst = -1;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = i + 1; j < p.size(); ++j)
      worst = std::max(worst, p.radius[i] + p.radius[j] - (p.position[i] - p.position[j]).norm());
  return worst;
}

/// True when f throws an InputError whose message contains `part`.
inline bool message_has(const std::function<void()>& f, const std::string& part) {
  try {
    f();
  } catch (const InputError& e) {
    BOOST_TEST_MESSAGE("error: " << e.what());
    return std::string(e.what()).find(part) != std::string::npos;
  }
  return false;
}

}  // namespace grainlab::test
