// Sweep expansion (see sweep.hpp). Pure function of the study; single-threaded. Each run is built from its
// index (mixed radix over the axes), so expansion is linear in the number of runs and never copies a
// growing list of partial points.
#include "pipeline/sweep.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "pipeline/validate.hpp"

#include "core/fnv1a.hpp"
#include "pipeline/files.hpp"

namespace grainlab::pipeline {

std::string parameter_key(const std::string& experiment, const Parameters& p) {
  std::string canonical = experiment + "\n";
  for (const auto& [k, v] : p.values) canonical += k + "=" + to_string(v) + "\n";  // std::map: sorted
  return fmt::format("{:016x}", fnv1a64(canonical));
}

TierSweep tier_sweep(const Study& study, const std::string& tier) {
  if (std::find(study.tier_names.begin(), study.tier_names.end(), tier) == study.tier_names.end())
    throw StudyError(fmt::format("{}: tier '{}': not a tier of study '{}' (its tiers: {}){}", study.file, tier, study.name,
                                 fmt::join(study.tier_names, ", "), did_you_mean(tier, study.tier_names)));
  TierSweep ts{study.parameters, study.sweep};
  if (auto it = study.tiers.find(tier); it != study.tiers.end()) {
    for (const auto& [k, v] : it->second.parameters) ts.base[k] = v;
    for (const auto& [k, v] : it->second.sweep.grid) {
      ts.sweep.zip.erase(k);
      ts.sweep.grid[k] = v;
    }
    if (!it->second.sweep.zip.empty()) {  // a zipped group is replaced whole
      for (const auto& [k, v] : it->second.sweep.zip) ts.sweep.grid.erase(k);
      ts.sweep.zip = it->second.sweep.zip;
    }
    if (it->second.replicates) ts.sweep.replicates = *it->second.replicates;
    if (!it->second.sweep.seed_parameter.empty()) ts.sweep.seed_parameter = it->second.sweep.seed_parameter;
    if (!it->second.sweep.where.empty()) ts.sweep.where = it->second.sweep.where;
  }
  return ts;
}

namespace {
std::size_t zip_length(const Sweep& s) { return s.zip.empty() ? 1 : s.zip.begin()->second.size(); }

std::size_t saturating_product(const TierSweep& ts) {
  constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
  std::size_t n = 1;
  auto times = [&](std::size_t k) { n = (k && n > kMax / k) ? kMax : n * k; };
  for (const auto& [name, values] : ts.sweep.grid) times(values.size());
  times(zip_length(ts.sweep));
  times(std::size_t(std::max(1, ts.sweep.replicates)));
  return n;
}
}  // namespace

std::size_t sweep_size(const Study& study, const std::string& tier) {
  const TierSweep ts = tier_sweep(study, tier);  // an unknown tier is an error even without runs
  return study.runs_own() ? saturating_product(ts) : 0;
}

std::vector<RunSpec> expand(const Study& study, const std::string& tier) {
  const TierSweep ts = tier_sweep(study, tier);
  if (!study.runs_own()) return {};  // it analyses the runs of the studies it imports
  const Sweep& sweep = ts.sweep;
  if (sweep.replicates > 1 && sweep.seed_parameter.empty())  // the loader reports this with a line already
    throw StudyError(fmt::format("{}: sweep.seed_parameter: required when replicates > 1", study.file));
  const std::size_t count = saturating_product(ts);
  if (count > study.max_runs)
    throw StudyError(fmt::format("{}: {}: tier '{}' has {} runs, more than the limit of {}; pass --allow-large-sweep "
                                 "to run it anyway",
                                 ts.sweep.where.empty() ? study.file : ts.sweep.where,
                                 study.tiers.count(tier) && !study.tiers.at(tier).sweep.where.empty() ? "tiers." + tier + ".sweep" : "sweep", tier, count == std::numeric_limits<std::size_t>::max() ? "over 1.8e19" : std::to_string(count),
                                 study.max_runs));
  std::vector<const std::pair<const std::string, std::vector<ParamValue>>*> axes;
  for (const auto& axis : sweep.grid) axes.push_back(&axis);
  const std::size_t zip_len = zip_length(sweep), reps = std::size_t(std::max(1, sweep.replicates));
  const Experiment* e = study.experiment_available ? &find_experiment(study.experiment) : nullptr;
  std::vector<RunSpec> runs;
  runs.reserve(count);
  for (std::size_t n = 0; n < count; ++n) {
    // n = ((grid index) * zip_len + zip index) * reps + replicate; the last grid axis varies fastest
    std::size_t rest = n;
    const int r = int(rest % reps);
    rest /= reps;
    const std::size_t zi = rest % zip_len;
    rest /= zip_len;
    auto q = ts.base;
    for (auto it = axes.rbegin(); it != axes.rend(); ++it) {
      const auto& values = (*it)->second;
      q[(*it)->first] = values[rest % values.size()];
      rest /= values.size();
    }
    for (const auto& [name, values] : sweep.zip) q[name] = values[zi];
    if (!sweep.seed_parameter.empty() && sweep.replicates > 1) q[sweep.seed_parameter] = std::int64_t(sweep.seed_base + r);
    RunSpec spec;
    spec.replicate = r;
    if (e) {
      try {
        spec.parameters = e->complete(q);
      } catch (const std::invalid_argument& ex) {
        throw StudyError(fmt::format("{}: {}", study.file, ex.what()));
      }
    } else {
      spec.parameters.values = std::move(q);
    }
    spec.key = parameter_key(study.experiment, spec.parameters);
    runs.push_back(std::move(spec));
  }
  return runs;
}

}  // namespace grainlab::pipeline
