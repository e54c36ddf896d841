#pragma once
// Sweep expansion: study + tier -> the list of runs (complete, validated parameters and a stable key).
// Order: grid axes in name order (last varies fastest), then the zipped group, then replicates.
#include <cstddef>
#include <string>
#include <vector>

#include "pipeline/study.hpp"

namespace grainlab::pipeline {

struct RunSpec {
  Parameters parameters;  ///< complete (defaults filled in)
  int replicate = 0;
  std::string key;        ///< hash of experiment + parameters (16 hex digits)
};

/// What one tier runs, before the product: base parameters with the tier's overrides and the merged axes.
struct TierSweep {
  std::map<std::string, ParamValue> base;
  Sweep sweep;
};

/// Base parameters <- tier overrides; sweep axes <- tier axes of the same name. Throws StudyError for a
/// tier the study does not declare (with "did you mean").
TierSweep tier_sweep(const Study& study, const std::string& tier);

/// Runs of a tier, counted without expanding (saturates at SIZE_MAX): cheap for any sweep size.
std::size_t sweep_size(const Study& study, const std::string& tier);

/// The product of tier_sweep (no runs for a study without an experiment of its own). Refuses more than study.max_runs runs (naming the count) before expanding.
std::vector<RunSpec> expand(const Study& study, const std::string& tier);

/// FNV-1a 64 of "experiment\nname=value\n..." over the complete parameters, in hex.
std::string parameter_key(const std::string& experiment, const Parameters& p);

}  // namespace grainlab::pipeline
