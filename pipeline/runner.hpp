#pragma once
// Runs the runs of a study that are not in the store yet, in parallel.
// Threading contract: `jobs` runs execute concurrently inside one tbb::task_arena of `jobs` threads;
// each run is told threads = max(1, hardware_concurrency / jobs) for its engine, and any TBB loop the
// engine starts runs inside the same arena, so the total never exceeds `jobs` worker threads.
// Default jobs = hardware concurrency (many small runs); use --jobs 1 for one big run using all cores.
// A run that throws is stored as failed with its message; the others go on.
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "pipeline/store.hpp"
#include "pipeline/sweep.hpp"

namespace grainlab::pipeline {

struct RunOptions {
  int jobs = 0;          ///< 0 = hardware concurrency
  bool force = false;    ///< recompute and replace existing results
  bool dry_run = false;  ///< list what would run, run nothing
  bool progress_tty = false;
  bool allow_large_sweep = false;  ///< lift Study::max_runs (grainlab run --allow-large-sweep)
};

struct RunOutcome {
  std::vector<RunSpec> specs;
  std::vector<StoredRun> runs;  ///< in sweep order; status "missing" for dry runs / absent results
  int computed = 0, reused = 0, failed = 0;
};

std::filesystem::path study_results_dir(const std::filesystem::path& results_root, const Study& s, const std::string& tier);

/// Executes missing runs (all with force) and returns every run of the sweep from the store.
RunOutcome run_study(const Study& study, const std::string& tier, const std::filesystem::path& results_root,
                     const RunOptions& options, std::ostream& log);

/// Only reads the store (for reports): missing runs get status "missing".
RunOutcome collect_study(const Study& study, const std::string& tier, const std::filesystem::path& results_root);

}  // namespace grainlab::pipeline
