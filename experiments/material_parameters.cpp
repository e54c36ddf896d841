#include "experiments/material_parameters.hpp"

namespace grainlab {

Material material_from_parameters(const Parameters& p, std::string name) {
  Material m;
  m.name = std::move(name);
  m.density = p.real("density");
  m.youngs_modulus = p.real("youngs_modulus");
  m.poisson_ratio = p.real("poisson_ratio");
  m.restitution = p.real("restitution");
  m.friction = p.real("friction");
  m.rolling_friction = p.values.contains("rolling_friction") ? p.real("rolling_friction") : 0.0;
  return m;
}

}  // namespace grainlab
