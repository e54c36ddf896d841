#pragma once
// The study's [scene] section (experiments/scene_spec.hpp; format in docs/studies.md): parsed and checked at
// load with "file:line: key: message" errors, then stored as the experiment's text parameter `scene` (its
// canonical one-line form), so the scene is part of every run's key and stored parameters.
#include <toml++/toml.h>

#include "pipeline/study.hpp"

namespace grainlab::pipeline {

/// Reads root["scene"] when present into s.parameters["scene"]. Errors: the experiment takes no scene, a key
/// of the scene (unknown, wrong type, bad value), a reference to a parameter the experiment lacks or that is
/// not a number, a stage the experiment does not run, and `scene` set as a parameter instead of [scene].
void read_scene_section(Study& s, const toml::table& root, const Experiment* e);

/// Fails (naming file:line and the key path, with `why`) where parameter `name` is set in [parameters], a
/// sweep or a tier: parameters that a section of their own fills (scene, pair_overrides).
void refuse_as_parameter(const Study& s, const toml::table& root, const std::string& name, const std::string& why);

}  // namespace grainlab::pipeline
