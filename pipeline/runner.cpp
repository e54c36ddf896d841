// Parallel execution of a study's runs (see runner.hpp for the threading and locking contracts).
#include "pipeline/runner.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <mutex>
#include <ostream>
#include <sched.h>
#include <stdexcept>
#include <thread>
#include <unordered_set>

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "core/error.hpp"
#include "core/run_warnings.hpp"
#include "pipeline/run_lock.hpp"

namespace grainlab::pipeline {
namespace fs = std::filesystem;

bool Shard::contains(const std::string& key) const {
  return std::stoull(key, nullptr, 16) % std::uint64_t(count) == std::uint64_t(index - 1);
}

Shard Shard::parse(const std::string& text) {
  Shard s;
  const auto slash = text.find('/');
  auto number = [&](std::string_view part, int& out) {
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
    return ec == std::errc() && end == part.data() + part.size();
  };
  const std::string_view all(text);
  if (slash == std::string::npos || !number(all.substr(0, slash), s.index) || !number(all.substr(slash + 1), s.count) ||
      s.count < 1 || s.index < 1 || s.index > s.count)
    throw std::invalid_argument(fmt::format("--shard '{}': expected K/N with 1 <= K <= N (e.g. 1/4)", text));
  return s;
}

int available_cores() {
  cpu_set_t set;
  int cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : int(std::thread::hardware_concurrency());
  // A Slurm task is allotted --cpus-per-task CPUs even where the cluster does not bind tasks to them.
  if (const char* slurm = std::getenv("SLURM_CPUS_PER_TASK"))
    if (const int n = std::atoi(slurm); n > 0) cores = std::min(cores, n);
  return std::max(1, cores);
}

fs::path study_results_dir(const fs::path& results_root, const Study& s, const std::string& tier) {
  return results_root / s.name / tier;
}

namespace {
/// Why a stored run cannot be reused ("" when it can): unreadable, or not the run its key names.
std::string distrust(const StoredRun& r, const RunSpec& spec, const Study& study) {
  if (r.status == "corrupt") return r.message;
  Parameters p;
  p.values = r.parameters;
  if (parameter_key(study.experiment, p) != spec.key) return "its parameters do not match its key";
  if (r.status == "ok")
    for (const auto& m : study.metrics)
      if (!r.metrics.count(m) && !(m.rfind("time_", 0) == 0 && r.provenance.stage_seconds.count(m.substr(5))))
        return fmt::format("metric '{}' is missing", m);
  return "";
}
}  // namespace

Plan plan_study(const Study& study, const std::string& tier, const fs::path& results_root, const RunOptions& options) {
  Plan plan;
  plan.specs = expand(study, tier);
  ResultStore store(study_results_dir(results_root, study, tier));
  std::unordered_set<std::string> seen;  // the same key twice in one sweep (duplicate points) runs once
  for (size_t i = 0; i < plan.specs.size(); ++i) {
    const auto& spec = plan.specs[i];
    if (!seen.insert(spec.key).second || !options.shard.contains(spec.key)) continue;
    ++plan.unique;
    if (options.force) {
      plan.todo.push_back(i);
      continue;
    }
    const auto r = store.load(spec.key);
    if (!r || r->status != "ok" || !distrust(*r, spec, study).empty()) plan.todo.push_back(i);
  }
  return plan;
}

namespace {
/// The stored runs of `study`'s own sweep (collect_study without the imports).
RunOutcome collect_own(const Study& study, const std::string& tier, const fs::path& results_root) {
  RunOutcome out;
  out.specs = expand(study, tier);
  ResultStore store(study_results_dir(results_root, study, tier));
  for (const auto& spec : out.specs) {
    auto r = store.load(spec.key);
    if (r)
      if (const std::string why = distrust(*r, spec, study); !why.empty()) {
        r->message = "stored result not trusted: " + why;
        r->status = "corrupt";
      }
    if (!r || r->status == "corrupt") {
      StoredRun m;
      m.key = spec.key;
      m.status = r ? "corrupt" : "missing";
      m.message = r ? r->message : "";
      m.parameters = spec.parameters.values;
      const LockStatus lock = probe_lock(store.lock_file(spec.key));
      if (lock.state == LockState::held) {
        m.status = "running";
        m.message = "running on " + lock.attempt.describe();
      } else if (lock.state == LockState::interrupted && !r) {
        m.status = "failed";
        m.message = lock.attempt.error.empty() ? "interrupted: the writer died (" + lock.attempt.describe() + ")"
                                               : lock.attempt.error + " (" + lock.attempt.describe() + ")";
      }
      r = m;
    }
    if (r->status == "failed" || r->status == "corrupt") ++out.failed;
    out.runs.push_back(*r);
    out.studies.push_back(study.name);
  }
  return out;
}
}  // namespace

RunOutcome collect_study(const Study& study, const std::string& tier, const fs::path& results_root) {
  RunOutcome out;
  for (const Study* source : run_sources(study)) {
    RunOutcome part = collect_own(*source, tier, results_root);
    out.specs.insert(out.specs.end(), part.specs.begin(), part.specs.end());
    out.runs.insert(out.runs.end(), part.runs.begin(), part.runs.end());
    out.studies.insert(out.studies.end(), part.studies.begin(), part.studies.end());
    out.failed += part.failed;
  }
  return out;
}

RunOutcome run_study(const Study& study, const std::string& tier, const fs::path& results_root, const RunOptions& options,
                     std::ostream& log) {
  const Plan plan = plan_study(study, tier, results_root, options);
  RunOutcome out;
  out.specs = plan.specs;
  // The stored runs, own and imported, replace the plan's specs (indices into them are done with).
  auto adopt_stored = [&] {
    RunOutcome c = collect_study(study, tier, results_root);
    out.specs = std::move(c.specs);
    out.runs = std::move(c.runs);
    out.studies = std::move(c.studies);
    return c.failed;
  };
  const auto& todo = plan.todo;
  ResultStore store(study_results_dir(results_root, study, tier));
  out.reused = int(plan.unique - todo.size());
  const std::string label = options.shard.count > 1 ? fmt::format("{} [{}, shard {}/{}]", study.name, tier, options.shard.index,
                                                                  options.shard.count)
                                                    : fmt::format("{} [{}]", study.name, tier);
  if (options.dry_run) {
    log << fmt::format("{}: {} runs, {} stored, {} to run\n", label, plan.unique, out.reused, todo.size());
    for (size_t i : todo) {
      std::string params;
      for (const auto& [k, v] : out.specs[i].parameters.values) params += fmt::format(" {}={}", k, to_string(v));
      log << fmt::format("  would run {}:{}\n", out.specs[i].key, params);
    }
    adopt_stored();
    return out;
  }
  if (!study.runs_own()) {  // only imported runs, computed by running the imported studies
    out.failed = adopt_stored();
    return out;
  }
  if (!study.experiment_available) {
    log << fmt::format("{}: not run: experiment '{}' not available in this build\n", study.name, study.experiment);
    adopt_stored();
    return out;
  }
  if (const int n = store.remove_orphans()) log << fmt::format("{}: removed {} temporary folders left by killed runs\n", label, n);
  const Experiment& exp = find_experiment(study.experiment);
  const int cores = available_cores();
  const int jobs = options.jobs > 0 ? options.jobs : cores;
  const int threads = options.threads > 0 ? options.threads : std::max(1, cores / jobs);
  std::mutex mu;
  size_t done = 0;
  int failed = 0;
  const auto t0 = std::chrono::steady_clock::now();
  auto seconds_since = [](auto t) { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count(); };
  auto report = [&](const RunSpec& spec, double wall, const std::string& outcome, bool is_failure) {
    std::lock_guard lock(mu);
    ++done;
    if (is_failure) ++failed;
    const double elapsed = seconds_since(t0);
    const double eta = elapsed / double(done) * double(todo.size() - done);
    std::string overall;
    if (options.progress) {
      const size_t all_done = ++options.progress->done;
      const double all_elapsed = seconds_since(options.progress->start);
      overall = fmt::format("; all studies {}/{}, ETA {:.0f}s", all_done, options.progress->total,
                            all_elapsed / double(all_done) * double(options.progress->total - std::min(all_done, options.progress->total)));
    }
    if (options.progress_tty) {
      log << fmt::format("\r{} [{}/{}] {:3.0f}% elapsed {:.1f}s ETA {:.1f}s{}{}", label, done, todo.size(),
                         100.0 * double(done) / double(todo.size()), elapsed, eta, overall, failed ? fmt::format(" ({} failed)", failed) : "");
      if (is_failure) log << fmt::format("\n  run {} {}\n", spec.key, outcome);
      if (done == todo.size()) log << "\n";
    } else {
      log << fmt::format("{} [{}/{}] {} {} ({:.2f}s, ETA {:.0f}s{})\n", label, done, todo.size(), spec.key, outcome, wall, eta, overall);
    }
    log.flush();
  };
  // Computes one run under its lock and stores it (ok, or failed with the message).
  auto execute = [&](const RunSpec& spec, RunLock& lock) {
    lock.record_attempt(current_attempt());
    Provenance prov = current_provenance(study.experiment, threads);
    RunContext ctx;
    ctx.threads = threads;
    const auto start = std::chrono::steady_clock::now();
    std::string error;
    bool unstable = false;
    RunResult result;
    RunWarnings warnings;  // the run guards' (core/run_warnings.hpp): steppers made in this run report here
    try {
      ScopedRunWarnings collect(warnings);
      if (options.threads > 0) {
        tbb::task_arena own(options.threads);
        own.execute([&] { result = exp.run(spec.parameters, ctx); });
      } else {
        result = exp.run(spec.parameters, ctx);
      }
      for (const auto& m : study.metrics)
        if (!result.metrics.count(m)) throw std::runtime_error(fmt::format("experiment did not report metric '{}'", m));
    } catch (const InstabilityError& e) {
      error = fmt::format("unstable at step {}: {}", e.step, e.what());
      unstable = true;
    } catch (const std::exception& e) {
      error = e.what();
      if (error.empty()) error = "exception without message";
    }
    prov.wall_s = seconds_since(start);
    for (const RunWarning& w : warnings.list())
      prov.warnings.push_back(w.count > 1 ? fmt::format("{}: {} ({} times)", w.code, w.message, w.count) : w.code + ": " + w.message);
    if (!prov.warnings.empty()) {
      std::lock_guard g(mu);
      for (const auto& w : prov.warnings) log << fmt::format("{}: run {} warning: {}\n", label, spec.key, w);
    }
    // Timings go to provenance only, so identical runs store identical results.
    for (auto it = result.metrics.begin(); it != result.metrics.end();)
      if (it->first.rfind("time_", 0) == 0) {
        prov.stage_seconds[it->first.substr(5)] = it->second;
        it = result.metrics.erase(it);
      } else {
        ++it;
      }
    std::string outcome = error.empty() ? "ok" : "FAILED: " + error;
    bool stored = true;
    try {
      if (!store.has(spec.key) && fs::exists(store.dir(spec.key))) {
        const fs::path aside = store.set_aside(spec.key);
        log << fmt::format("{}: run {} had an incomplete folder, kept as {}\n", label, spec.key, aside.string());
      }
      store.save(spec.key, spec.parameters, error.empty() ? &result : nullptr, error, prov, true);
      lock.clear_attempt();
    } catch (const std::exception& e) {
      stored = false;
      outcome = fmt::format("FAILED: could not store result: {}", e.what());
      Attempt a = current_attempt();
      a.error = outcome.substr(8);
      lock.record_attempt(a);
    }
    {
      std::lock_guard g(mu);
      if (unstable) ++out.unstable;
      if (!stored) ++out.store_failures;
      if (stored && error.empty()) ++out.computed;
    }
    report(spec, prov.wall_s, outcome, !error.empty() || !stored);
  };
  // Sets aside a stored run that cannot be trusted before recomputing it, saying why.
  auto set_aside_untrusted = [&](const RunSpec& spec) {
    const auto r = store.load(spec.key);
    if (!r || options.force) return;
    if (r->status == "failed") {
      log << fmt::format("{}: retrying failed run {} ({})\n", label, spec.key, r->message);
      return;
    }
    const std::string why = distrust(*r, spec, study);
    if (why.empty()) return;
    const fs::path aside = store.set_aside(spec.key);
    log << fmt::format("{}: stored run {} not trusted ({}); kept as {} and recomputed\n", label, spec.key, why, aside.string());
  };
  std::vector<size_t> elsewhere;  // locked by another writer when we came to them
  tbb::task_arena arena(jobs);
  arena.execute([&] {
    tbb::parallel_for(size_t(0), todo.size(), [&](size_t n) {
      const RunSpec& spec = out.specs[todo[n]];
      auto lock = RunLock::try_acquire(store.lock_file(spec.key));
      if (!lock) {
        std::lock_guard g(mu);
        elsewhere.push_back(todo[n]);
        return;
      }
      // Another writer may have stored it between planning and locking.
      if (!options.force) {
        const auto r = store.load(spec.key);
        if (r && r->status == "ok" && distrust(*r, spec, study).empty()) {
          report(spec, 0.0, "stored meanwhile by another writer", false);
          return;
        }
      }
      set_aside_untrusted(spec);
      execute(spec, *lock);
    });
  });
  std::sort(elsewhere.begin(), elsewhere.end());
  for (size_t i : elsewhere) {
    const RunSpec& spec = out.specs[i];
    log << fmt::format("{}: run {} is being computed by {}; waiting for it\n", label, spec.key,
                       probe_lock(store.lock_file(spec.key)).attempt.describe());
    RunLock lock = RunLock::acquire(store.lock_file(spec.key));
    const auto r = store.load(spec.key);
    if (r && r->status == "ok" && distrust(*r, spec, study).empty()) {
      report(spec, 0.0, "stored by another writer", false);
      continue;
    }
    set_aside_untrusted(spec);
    arena.execute([&] { execute(spec, lock); });
  }
  out.failed = std::max(adopt_stored(), failed);
  return out;
}

}  // namespace grainlab::pipeline
