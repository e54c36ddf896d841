#pragma once
// Runs the runs of a study that are not in the store yet, in parallel.
// Threading contract: `jobs` runs execute concurrently inside one tbb::task_arena of `jobs` threads;
// each run is told threads = max(1, cores / jobs) for its engine, and any TBB loop the engine starts
// runs inside the same arena, so the total never exceeds `jobs` worker threads.
// Default jobs = the cores this process may use (many small runs); --jobs 1 for one big run on all.
// With RunOptions::threads > 0 each run gets an arena of that many threads of its own instead (jobs x
// threads in all).
// Warnings: each run collects the run guards' warnings (core/run_warnings.hpp) while it executes; they go
// to the log (one line each) and to the run's provenance (warnings), and the study report lists them.
// A run that throws is stored as failed with its message; the others go on.
// Concurrency with other writers (another `grainlab run`, the shards of a Slurm array): each run is
// computed under its run lock (run_lock.hpp). A run locked elsewhere is done last: this process waits
// for the lock and then reuses what the other writer stored.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "pipeline/store.hpp"
#include "pipeline/sweep.hpp"

namespace grainlab::pipeline {

/// One of N deterministic slices of a study's pending runs (`--shard K/N`, K = 1…N): a run belongs to
/// slice 1 + key mod N, so a run keeps its slice when runs are added to the sweep.
struct Shard {
  int index = 1, count = 1;
  bool contains(const std::string& key) const;
  static Shard parse(const std::string& text);  ///< "K/N"; throws std::invalid_argument
};

/// Overall progress over several studies (the ETA printed after every run covers all of them).
struct Progress {
  size_t total = 0;
  std::atomic<size_t> done{0};
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

struct RunOptions {
  int jobs = 0;          ///< 0 = the cores this process may use
  /// Engine threads per run: > 0 runs each run in a tbb::task_arena of its own with that many threads
  /// (grainlab run --threads); 0 = cores / jobs, all runs sharing the arena of `jobs` threads.
  int threads = 0;
  bool force = false;    ///< recompute and replace existing results
  bool dry_run = false;  ///< list what would run, run nothing
  bool progress_tty = false;
  Shard shard;                   ///< run only this slice of the pending runs
  Progress* progress = nullptr;  ///< shared over the studies of one command
  bool allow_large_sweep = false;  ///< lift Study::max_runs (grainlab run --allow-large-sweep)
};

struct RunOutcome {
  std::vector<RunSpec> specs;
  std::vector<StoredRun> runs;  ///< in sweep order; status "missing" for dry runs / absent results
  /// The study each run belongs to (parallel to runs): the study's own runs first, then those of the
  /// studies it imports (run_sources), each in its sweep order.
  std::vector<std::string> studies;
  int computed = 0, reused = 0, failed = 0;
  int unstable = 0;        ///< runs that stopped with an instability diagnosis (counted in failed)
  int store_failures = 0;  ///< runs computed but not stored (counted in failed)
};

/// What a run command would compute: the unique pending runs (indices into `specs`) of this shard.
struct Plan {
  std::vector<RunSpec> specs;
  std::vector<size_t> todo;
  size_t unique = 0;  ///< distinct keys of this shard (a sweep may list a point twice)
};

std::filesystem::path study_results_dir(const std::filesystem::path& results_root, const Study& s, const std::string& tier);

/// Expands the sweep and finds what is not stored (or cannot be trusted) yet. Read-only.
Plan plan_study(const Study& study, const std::string& tier, const std::filesystem::path& results_root, const RunOptions& options);

/// Executes the plan's runs and returns every run of the sweep from the store, with the stored runs of the
/// studies it imports (it does not run those: grainlab run runs the imported studies first, driver.hpp).
RunOutcome run_study(const Study& study, const std::string& tier, const std::filesystem::path& results_root,
                     const RunOptions& options, std::ostream& log);

/// Only reads the store (for reports): absent runs get status "missing", runs whose lock is held
/// "running", runs whose writer died "failed" (with the attempt's host, pid and log). A study that
/// imports others gets their runs of the same tier too (RunOutcome::studies names each run's study).
RunOutcome collect_study(const Study& study, const std::string& tier, const std::filesystem::path& results_root);

/// The cores this process may run on (its CPU affinity, e.g. under taskset or a Slurm allocation).
int available_cores();

}  // namespace grainlab::pipeline
