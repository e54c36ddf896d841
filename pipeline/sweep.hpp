#pragma once
// Sweep expansion: study + tier -> the list of runs (complete, validated parameters and a stable key).
// Order: grid axes in name order (last varies fastest), then the zipped group, then replicates.
#include <string>
#include <vector>

#include "pipeline/study.hpp"

namespace grainlab::pipeline {

struct RunSpec {
  Parameters parameters;  ///< complete (defaults filled in)
  int replicate = 0;
  std::string key;        ///< hash of experiment + parameters (16 hex digits)
};

/// Base parameters <- tier overrides; sweep axes <- tier axes of the same name; then the product.
std::vector<RunSpec> expand(const Study& study, const std::string& tier);

/// FNV-1a 64 of "experiment\nname=value\n..." over the complete parameters, in hex.
std::string parameter_key(const std::string& experiment, const Parameters& p);

}  // namespace grainlab::pipeline
