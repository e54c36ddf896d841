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

void PairOverrides::set(int a, int b, const PairOverride& o) {
  if (a < 0 || b < 0) throw InputError(fmt::format("pair override: material indices {} and {} must be >= 0", a, b));
  auto check = [&](const char* key, const std::optional<double>& v, bool at_most_one) {
    if (v && (!std::isfinite(*v) || *v < 0 || (at_most_one && *v > 1)))
      throw InputError(fmt::format("pair override of materials {} and {}: {} = {} is invalid ({})", a, b, key, *v,
                                   at_most_one ? "must be in [0, 1]" : "must be >= 0"));
  };
  check("restitution", o.restitution, true);
  check("friction", o.friction, false);
  check("rolling_friction", o.rolling_friction, false);
  check("twisting_factor", o.twisting_factor, true);
  table_[{std::min(a, b), std::max(a, b)}] = o;
  ++revision_;
}

const PairOverride* PairOverrides::find(int a, int b) const {
  if (table_.empty()) return nullptr;
  const auto it = table_.find({std::min(a, b), std::max(a, b)});
  return it == table_.end() ? nullptr : &it->second;
}

MaterialPair mix(const Material& a, const Material& b, const PairOverride* o) {
  MaterialPair p = mix(a, b);
  if (!o) return p;
  p.restitution = o->restitution.value_or(p.restitution);
  p.friction = o->friction.value_or(p.friction);
  p.rolling_friction = o->rolling_friction.value_or(p.rolling_friction);
  p.twisting_factor = o->twisting_factor.value_or(p.twisting_factor);
  return p;
}

bool may_resist_rolling_or_twisting(const MaterialTable& materials, const PairOverrides& overrides) {
  for (const Material& m : materials)
    if (m.rolling_friction > 0 || m.twisting_factor > 0) return true;
  for (const auto& [pair, o] : overrides.all())
    if (o.rolling_friction.value_or(0.0) > 0 || o.twisting_factor.value_or(0.0) > 0) return true;
  return false;
}

MaterialPair mix(const Material& a, const Material& b) {
  const double inv_e = (1 - a.poisson_ratio * a.poisson_ratio) / a.youngs_modulus +
                       (1 - b.poisson_ratio * b.poisson_ratio) / b.youngs_modulus;
  return {1.0 / inv_e, std::min(a.restitution, b.restitution), std::min(a.friction, b.friction),
          std::min(a.rolling_friction, b.rolling_friction), std::min(a.twisting_factor, b.twisting_factor)};
}

}  // namespace grainlab
