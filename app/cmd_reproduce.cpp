// `grainlab reproduce [--tier quick|full] [--jobs N]`: every study of studies/, then the report (index.html).
#include <iostream>
#include <memory>
#include <unistd.h>

#include <filesystem>

#include "app/command.hpp"
#include "pipeline/driver.hpp"

namespace grainlab {
namespace {

struct Options {
  std::string tier = "quick", results;
  int jobs = 0;
  bool force = false;
};

const CommandRegistration reg{
    "reproduce", "Run every study (quick tier by default) and write results/index.html",
    [](CLI::App& cmd) {
      auto o = std::make_shared<Options>();
      cmd.add_option("--tier", o->tier, "tier: quick or full")->capture_default_str();
      cmd.add_option("--jobs,-j", o->jobs, "runs executed concurrently (default: the cores this process may use)")
          ->check(CLI::Range(1, 1 << 16));
      cmd.add_flag("--force", o->force, "recompute runs already in the store");
      cmd.add_option("--results", o->results, "results directory (default: <project root>/results)");
      return [o] {
        auto paths = pipeline::default_paths();
        if (!o->results.empty()) paths.results_root = o->results;
        std::vector<std::string> studies;
        for (const auto& f : pipeline::study_files(paths.studies_dir().string())) studies.push_back(f);
        pipeline::RunOptions ro;
        ro.jobs = o->jobs;
        ro.force = o->force;
        ro.dry_run = false;
        ro.progress_tty = bool(isatty(STDERR_FILENO));
        return pipeline::run_studies(studies, o->tier, ro, paths, std::cout, std::cerr);
      };
    },
    35};

}  // namespace
}  // namespace grainlab
