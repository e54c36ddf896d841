// `grainlab submit STUDY... [--tier T] [--array N] [--threads T] [--partition P] [--time T] [--dry-run]`:
// spread the studies' pending runs over a Slurm job array (task K runs `grainlab run --shard K/N`) and
// submit a report job that starts when every task has ended. Prints the job ids.
#include <algorithm>
#include <iostream>
#include <memory>
#include <unistd.h>

#include <fmt/format.h>

#include "app/command.hpp"
#include "pipeline/driver.hpp"
#include "pipeline/files.hpp"
#include "pipeline/slurm.hpp"
#include "pipeline/version.hpp"

namespace grainlab {
namespace {
namespace fs = std::filesystem;

struct Options {
  std::vector<std::string> studies, sbatch_args;
  std::string tier = "quick", results, partition, time;
  int array = 0, threads = 1;
  bool dry_run = false;
};

const CommandRegistration reg{
    "submit", "Run studies on a Slurm cluster: a job array of shards plus a dependent report job",
    [](CLI::App& cmd) {
      auto o = std::make_shared<Options>();
      cmd.add_option("studies", o->studies, "study names (studies/NAME.toml) or paths")->required();
      cmd.add_option("--tier", o->tier, "tier: quick (CI scale) or full (paper scale)")->capture_default_str();
      cmd.add_option("--array", o->array, "tasks in the job array (default: pending runs, at most 32)")->check(CLI::Range(1, 100000));
      cmd.add_option("--threads", o->threads, "CPUs per task = engine threads of each run")->check(CLI::Range(1, 1024))->capture_default_str();
      cmd.add_option("--partition", o->partition, "Slurm partition");
      cmd.add_option("--time", o->time, "Slurm time limit per task, e.g. 02:00:00");
      cmd.add_option("--sbatch-arg", o->sbatch_args, "extra sbatch option for both jobs, e.g. --sbatch-arg=--account=abc");
      cmd.add_option("--results", o->results, "results directory, on a filesystem every node sees (default: <source>/results)");
      cmd.add_flag("--dry-run", o->dry_run, "print the two job scripts, submit nothing");
      return [o] {
        auto paths = pipeline::default_paths();
        if (!o->results.empty()) paths.results_root = o->results;
        pipeline::SubmitOptions so;
        so.tier = o->tier;
        so.threads = o->threads;
        so.partition = o->partition;
        so.time_limit = o->time;
        so.sbatch_args = o->sbatch_args;
        so.results_root = fs::absolute(paths.results_root).lexically_normal();
        so.grainlab = fs::canonical("/proc/self/exe");
        so.workdir = fs::current_path();
        std::vector<std::string> names;
        for (const auto& s : o->studies) {
          so.study_files.push_back(fs::absolute(pipeline::resolve_study(paths, s)).lexically_normal().string());
          names.push_back(fs::path(so.study_files.back()).stem().string());
        }
        // Loading and planning validate every study: file, line and key errors before anything is submitted.
        std::vector<pipeline::Study> studies;
        for (const auto& f : so.study_files) studies.push_back(pipeline::load_study(f, paths.source_root.string()));
        size_t pending = 0;
        // The runs of the studies each one imports too: its shards run them first (pipeline/driver.hpp).
        for (const auto& s : studies)
          for (const pipeline::Study* source : pipeline::run_sources(s))
            pending += pipeline::plan_study(*source, o->tier, paths.results_root, {}).todo.size();
        so.array = o->array > 0 ? o->array : int(std::clamp<size_t>(pending, 1, 32));
        std::string stamp = utc_now();
        std::replace(stamp.begin(), stamp.end(), ':', '-');
        so.job_dir = so.results_root / "slurm" / fmt::format("{}-{}", stamp, names.front());
        if (o->dry_run) {
          std::cout << fmt::format("# {} pending runs in {} tasks; scripts would go to {}\n", pending, so.array, so.job_dir.string());
          std::cout << "# ---- array.sbatch\n" << pipeline::array_script(so);
          std::cout << "# ---- report.sbatch (sbatch --dependency=afterany:<array job>)\n" << pipeline::report_script(so);
          return 0;
        }
        if (pending == 0) {
          std::cout << "every run is stored already; nothing to submit (grainlab report writes the reports)\n";
          return 0;
        }
        pipeline::require_writable(so.results_root);
        const auto jobs = pipeline::submit_to_slurm(so);
        std::cout << fmt::format("submitted array job {} ({} tasks, {} pending runs)\n", jobs.array_job, so.array, pending);
        std::cout << fmt::format("submitted report job {} (after array job {})\n", jobs.report_job, jobs.array_job);
        std::cout << fmt::format("scripts and logs: {}\nprogress: grainlab status --results {}\n", so.job_dir.string(),
                                 so.results_root.string());
        return 0;
      };
    },
    35};

}  // namespace
}  // namespace grainlab
