// `grainlab run STUDY... [--tier quick|full] [--jobs N] [--threads T] [--dry-run] [--force] [--shard K/N] [--allow-large-sweep]`:
// expand, run what is not stored yet, analyse, write report.md per study and results/index.html. Exit 1 if
// a check fails or a run errors, 3 if a run went unstable. With --shard only the K-th of N slices is
// computed (a Slurm array task); `grainlab report` then writes the reports.
#include <iostream>
#include <memory>
#include <unistd.h>

#include "app/command.hpp"
#include "pipeline/driver.hpp"

namespace grainlab {
namespace {

struct Options {
  std::vector<std::string> studies;
  std::string tier = "quick", results, shard;
  int jobs = 0, threads = 0;
  bool dry_run = false, force = false, allow_large_sweep = false;
};

const CommandRegistration reg{
    "run", "Run studies (TOML files or names in studies/): sweep, parallel runs, results store, report",
    [](CLI::App& cmd) {
      auto o = std::make_shared<Options>();
      cmd.add_option("studies", o->studies, "study names (studies/NAME.toml) or paths")->required();
      cmd.add_option("--tier", o->tier, "tier: quick (CI scale) or full (paper scale)")->capture_default_str();
      cmd.add_option("--jobs,-j", o->jobs, "runs executed concurrently (default: the cores this process may use; each run's engine gets cores/jobs threads)")
          ->check(CLI::Range(1, 1 << 16));
      cmd.add_option("--threads", o->threads, "engine threads per run, each run in a thread arena of its own (default: cores/jobs, shared)")
          ->check(CLI::Range(1, 1 << 16));
      cmd.add_flag("--dry-run", o->dry_run, "list the runs that would execute, run nothing");
      cmd.add_flag("--force", o->force, "recompute and replace runs already in the store");
      cmd.add_flag("--allow-large-sweep", o->allow_large_sweep, "run sweeps of more than 100000 runs (refused by default)");
      cmd.add_option("--results", o->results, "results directory (default: <project root>/results)");
      cmd.add_option("--shard", o->shard, "K/N: compute only the K-th of N slices of the pending runs (K = 1..N), no reports");
      return [o] {
        auto paths = pipeline::default_paths();
        if (!o->results.empty()) paths.results_root = o->results;
        pipeline::RunOptions ro;
        ro.jobs = o->jobs;
        ro.threads = o->threads;
        ro.force = o->force;
        ro.dry_run = o->dry_run;
        ro.progress_tty = bool(isatty(STDERR_FILENO));
        if (!o->shard.empty()) ro.shard = pipeline::Shard::parse(o->shard);
        ro.allow_large_sweep = o->allow_large_sweep;
        return pipeline::run_studies(o->studies, o->tier, ro, paths, std::cout, std::cerr);
      };
    },
    30};

}  // namespace
}  // namespace grainlab
