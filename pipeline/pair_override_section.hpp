#pragma once
// The study's [[pair_override]] sections (experiments/pair_override_parameters.hpp; format in
// docs/studies.md): checked at load with "file:line: key: message" errors, then stored as the experiment's text
// parameter `pair_overrides` (canonical one-line form), so the overrides are part of every run's key.
#include <toml++/toml.h>

#include "pipeline/study.hpp"

namespace grainlab::pipeline {

/// Reads root["pair_override"] when present into s.parameters["pair_overrides"]. Errors: the experiment takes
/// no overrides (it declares no text parameter `pair_overrides`), an unknown key, `materials` not two names, a
/// value that is not a number or out of range, no value at all, the same pair twice, and `pair_overrides` set
/// as a parameter instead.
void read_pair_override_section(Study& s, const toml::table& root, const Experiment* e);

}  // namespace grainlab::pipeline
