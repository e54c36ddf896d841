#pragma once
// Per-material-pair overrides of restitution, friction, rolling friction and twisting factor from a study
// (the [[pair_override]] section, docs/studies.md). The loader (pipeline/pair_override_section.hpp) checks
// them and stores them as the experiment's text parameter `pair_overrides` in a canonical one-line form,
// "a|b:restitution=0.3,friction=0.2;c|d:...", so that they are part of the run key. An experiment that
// declares the parameter calls apply_pair_overrides once its materials are in the world.
#include <string>
#include <vector>

#include "core/material.hpp"
#include "core/world.hpp"
#include "experiments/experiment.hpp"

namespace grainlab {

/// One override between two materials named as the experiment names them.
struct NamedPairOverride {
  std::string a, b;
  PairOverride values;
};

/// The text parameter (default "": none).
ParameterSpec pair_overrides_parameter();

std::string pair_overrides_to_text(const std::vector<NamedPairOverride>& overrides);
/// Reads the canonical form; InputError naming the parameter on anything else.
std::vector<NamedPairOverride> pair_overrides_from_text(const std::string& text);

/// Sets World::pair_overrides from p.text("pair_overrides"). A material name the world does not have is an
/// InputError that lists the names it has.
void apply_pair_overrides(World& world, const Parameters& p);

}  // namespace grainlab
