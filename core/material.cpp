#include "core/material.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab {

void Material::validate() const {
  auto fail = [&](const char* key, double value, const char* rule) {
    throw InputError(fmt::format("material '{}': {} = {} is invalid ({})", name, key, value, rule));
  };
  auto finite = [](double v) { return std::isfinite(v); };
  if (!finite(density) || density <= 0) fail("density", density, "must be > 0");
  if (!finite(youngs_modulus) || youngs_modulus <= 0) fail("youngs_modulus", youngs_modulus, "must be > 0");
  if (!finite(poisson_ratio) || poisson_ratio <= -1.0 || poisson_ratio >= 0.5)
    fail("poisson_ratio", poisson_ratio, "must be in (-1, 0.5)");
  if (!finite(restitution) || restitution < 0 || restitution > 1) fail("restitution", restitution, "must be in [0, 1]");
  if (!finite(friction) || friction < 0) fail("friction", friction, "must be >= 0");
  if (!finite(rolling_friction) || rolling_friction < 0) fail("rolling_friction", rolling_friction, "must be >= 0");
  if (!finite(twisting_factor) || twisting_factor < 0 || twisting_factor > 1)
    fail("twisting_factor", twisting_factor, "must be in [0, 1]");
}

MaterialPair mix(const Material& a, const Material& b) {
  const double inv_e = (1 - a.poisson_ratio * a.poisson_ratio) / a.youngs_modulus +
                       (1 - b.poisson_ratio * b.poisson_ratio) / b.youngs_modulus;
  return {1.0 / inv_e, std::min(a.restitution, b.restitution), std::min(a.friction, b.friction),
          std::min(a.rolling_friction, b.rolling_friction), std::min(a.twisting_factor, b.twisting_factor)};
}

}  // namespace grainlab
