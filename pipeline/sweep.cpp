// Sweep expansion (see sweep.hpp). Pure function of the study; single-threaded.
#include "pipeline/sweep.hpp"

#include <fmt/format.h>

#include "core/fnv1a.hpp"
#include "pipeline/files.hpp"

namespace grainlab::pipeline {

std::string parameter_key(const std::string& experiment, const Parameters& p) {
  std::string canonical = experiment + "\n";
  for (const auto& [k, v] : p.values) canonical += k + "=" + to_string(v) + "\n";  // std::map: sorted
  return fmt::format("{:016x}", fnv1a64(canonical));
}

std::vector<RunSpec> expand(const Study& study, const std::string& tier) {
  if (tier != "quick" && tier != "full" && !study.tiers.count(tier))
    throw StudyError(fmt::format("{}: tiers: unknown tier '{}'", study.file, tier));
  std::map<std::string, ParamValue> base = study.parameters;
  Sweep sweep = study.sweep;
  if (auto it = study.tiers.find(tier); it != study.tiers.end()) {
    for (const auto& [k, v] : it->second.parameters) base[k] = v;
    for (const auto& [k, v] : it->second.sweep.grid) {
      sweep.zip.erase(k);
      sweep.grid[k] = v;
    }
    if (!it->second.sweep.zip.empty()) sweep.zip = it->second.sweep.zip;  // a zipped group is replaced whole
    if (it->second.replicates) sweep.replicates = *it->second.replicates;
    if (!it->second.sweep.seed_parameter.empty()) sweep.seed_parameter = it->second.sweep.seed_parameter;
  }
  if (sweep.replicates > 1 && sweep.seed_parameter.empty())
    throw StudyError(fmt::format("{}: sweep.seed_parameter: required when replicates > 1", study.file));
  size_t zip_len = 0;
  for (const auto& [k, v] : sweep.zip) zip_len = v.size();

  std::vector<std::map<std::string, ParamValue>> points{base};
  for (const auto& [name, values] : sweep.grid) {
    std::vector<std::map<std::string, ParamValue>> next;
    for (const auto& pt : points)
      for (const auto& v : values) {
        auto q = pt;
        q[name] = v;
        next.push_back(std::move(q));
      }
    points = std::move(next);
  }
  if (zip_len) {
    std::vector<std::map<std::string, ParamValue>> next;
    for (const auto& pt : points)
      for (size_t i = 0; i < zip_len; ++i) {
        auto q = pt;
        for (const auto& [name, values] : sweep.zip) q[name] = values[i];
        next.push_back(std::move(q));
      }
    points = std::move(next);
  }
  std::vector<RunSpec> runs;
  for (const auto& pt : points)
    for (int r = 0; r < sweep.replicates; ++r) {
      auto q = pt;
      if (!sweep.seed_parameter.empty() && sweep.replicates > 1) q[sweep.seed_parameter] = std::int64_t(sweep.seed_base + r);
      RunSpec spec;
      spec.replicate = r;
      if (study.experiment_available) {
        try {
          spec.parameters = find_experiment(study.experiment).complete(q);
        } catch (const std::invalid_argument& e) {
          throw StudyError(fmt::format("{}: {}", study.file, e.what()));
        }
      } else {
        spec.parameters.values = q;
      }
      spec.key = parameter_key(study.experiment, spec.parameters);
      runs.push_back(std::move(spec));
    }
  return runs;
}

}  // namespace grainlab::pipeline
