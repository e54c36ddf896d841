// Parallel execution of a study's runs (see runner.hpp for the threading contract).
#include "pipeline/runner.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <ostream>
#include <thread>
#include <unordered_set>

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace grainlab::pipeline {
namespace fs = std::filesystem;

fs::path study_results_dir(const fs::path& results_root, const Study& s, const std::string& tier) {
  return results_root / s.name / tier;
}

RunOutcome collect_study(const Study& study, const std::string& tier, const fs::path& results_root) {
  RunOutcome out;
  out.specs = expand(study, tier);
  ResultStore store(study_results_dir(results_root, study, tier));
  for (const auto& spec : out.specs) {
    if (auto r = store.load(spec.key)) {
      out.runs.push_back(*r);
      if (r->status != "ok") ++out.failed;
    } else {
      StoredRun m;
      m.key = spec.key;
      m.status = "missing";
      m.parameters = spec.parameters.values;
      out.runs.push_back(m);
    }
  }
  return out;
}

RunOutcome run_study(const Study& study, const std::string& tier, const fs::path& results_root, const RunOptions& options,
                     std::ostream& log) {
  RunOutcome out;
  out.specs = expand(study, tier);
  ResultStore store(study_results_dir(results_root, study, tier));
  std::vector<size_t> todo;
  for (size_t i = 0; i < out.specs.size(); ++i) {
    const auto& spec = out.specs[i];
    if (!store.has(spec.key) || options.force) {
      todo.push_back(i);
      continue;
    }
    auto r = store.load(spec.key);
    if (r && r->status != "ok") {  // a failed run is not a result: retry it (its message is replaced)
      log << fmt::format("{}: retrying failed run {} ({})\n", study.name, spec.key, r->message);
      todo.push_back(i);
    }
  }
  // The same key twice in one sweep (e.g. duplicate points) runs once.
  std::vector<size_t> unique;
  std::unordered_set<std::string> seen;  // O(n): a 10^5-run sweep de-duplicates in milliseconds
  for (size_t i : todo)
    if (seen.insert(out.specs[i].key).second) unique.push_back(i);
  todo = unique;
  out.reused = int(out.specs.size() - todo.size());
  if (options.dry_run) {
    log << fmt::format("{} [{}]: {} runs, {} stored, {} to run\n", study.name, tier, out.specs.size(), out.reused, todo.size());
    for (size_t i : todo) {
      std::string params;
      for (const auto& [k, v] : out.specs[i].parameters.values) params += fmt::format(" {}={}", k, to_string(v));
      log << fmt::format("  would run {}:{}\n", out.specs[i].key, params);
    }
    out.runs = collect_study(study, tier, results_root).runs;
    return out;
  }
  if (!study.experiment_available) {
    log << fmt::format("{}: not run: experiment '{}' not available in this build\n", study.name, study.experiment);
    out.runs = collect_study(study, tier, results_root).runs;
    return out;
  }
  const Experiment& exp = find_experiment(study.experiment);
  const int hw = int(std::max(1u, std::thread::hardware_concurrency()));
  const int jobs = options.jobs > 0 ? options.jobs : hw;
  const int threads = std::max(1, hw / jobs);
  std::mutex mu;
  size_t done = 0;
  int failed = 0;
  const auto t0 = std::chrono::steady_clock::now();
  auto report = [&](const RunSpec& spec, double wall, const std::string& error) {
    std::lock_guard lock(mu);
    ++done;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double eta = done ? elapsed / double(done) * double(todo.size() - done) : 0.0;
    if (!error.empty()) ++failed;
    if (options.progress_tty) {
      log << fmt::format("\r{} [{}/{}] {:3.0f}% elapsed {:.1f}s ETA {:.1f}s{}", study.name, done, todo.size(),
                         100.0 * double(done) / double(todo.size()), elapsed, eta, failed ? fmt::format(" ({} failed)", failed) : "");
      if (!error.empty()) log << fmt::format("\n  run {} failed: {}\n", spec.key, error);
      if (done == todo.size()) log << "\n";
    } else {
      log << fmt::format("{} [{}/{}] {} {} ({:.2f}s, ETA {:.0f}s){}\n", study.name, done, todo.size(), spec.key,
                         error.empty() ? "ok" : "FAILED", wall, eta, error.empty() ? "" : ": " + error);
    }
    log.flush();
  };
  tbb::task_arena arena(jobs);
  arena.execute([&] {
    tbb::parallel_for(size_t(0), todo.size(), [&](size_t n) {
      const RunSpec& spec = out.specs[todo[n]];
      Provenance prov = current_provenance(study.experiment, threads);
      RunContext ctx;
      ctx.threads = threads;
      const auto start = std::chrono::steady_clock::now();
      std::string error;
      RunResult result;
      try {
        result = exp.run(spec.parameters, ctx);
        for (const auto& m : study.metrics)
          if (!result.metrics.count(m)) throw std::runtime_error(fmt::format("experiment did not report metric '{}'", m));
      } catch (const std::exception& e) {
        error = e.what();
        if (error.empty()) error = "exception without message";
      }
      prov.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      for (const auto& [k, v] : result.metrics)
        if (k.rfind("time_", 0) == 0) prov.stage_seconds[k.substr(5)] = v;
      try {
        store.save(spec.key, spec.parameters, error.empty() ? &result : nullptr, error, prov, true);
      } catch (const std::exception& e) {
        error = std::string("could not store result: ") + e.what();
      }
      report(spec, prov.wall_s, error);
    });
  });
  out.computed = int(todo.size()) - failed;
  RunOutcome collected = collect_study(study, tier, results_root);
  out.runs = collected.runs;
  out.failed = collected.failed;
  return out;
}

}  // namespace grainlab::pipeline
