#pragma once
// A Material from an experiment's usual parameters: density, youngs_modulus, poisson_ratio, restitution,
// friction and, when the experiment declares it, rolling_friction (0 otherwise).
#include <string>

#include "core/material.hpp"
#include "experiments/experiment.hpp"

namespace grainlab {

Material material_from_parameters(const Parameters& p, std::string name);

}  // namespace grainlab
