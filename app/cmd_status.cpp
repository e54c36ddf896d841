// `grainlab status [STUDY...] [--tier T]`: per study and tier, how many runs are stored, failed,
// running, pending; the Slurm jobs submitted into this results folder and their queue state. Removes
// temporary folders left by killed runs.
#include <iostream>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "app/command.hpp"
#include "pipeline/driver.hpp"
#include "pipeline/slurm.hpp"

namespace grainlab {
namespace {
namespace fs = std::filesystem;

struct Options {
  std::vector<std::string> studies, tiers;
  std::string results;
  bool failed = false;
};

const CommandRegistration reg{
    "status", "What is stored, pending, running and failed per study and tier; submitted Slurm jobs",
    [](CLI::App& cmd) {
      auto o = std::make_shared<Options>();
      cmd.add_option("studies", o->studies, "studies (default: every study in studies/)");
      cmd.add_option("--tier", o->tiers, "tiers to show (default: quick, full and those with results)");
      cmd.add_flag("--failed", o->failed, "also list each failed or interrupted run with its message");
      cmd.add_option("--results", o->results, "results directory (default: <source>/results)");
      return [o] {
        auto paths = pipeline::default_paths();
        if (!o->results.empty()) paths.results_root = o->results;
        std::vector<std::string> files;
        for (const auto& s : o->studies) files.push_back(pipeline::resolve_study(paths, s));
        if (files.empty()) files = pipeline::study_files(paths.studies_dir().string());
        std::cout << fmt::format("results: {}\n\n", paths.results_root.string());
        std::cout << fmt::format("{:<32} {:<6} {:>6} {:>6} {:>7} {:>7} {:>7}\n", "study", "tier", "runs", "stored", "failed", "running",
                                 "pending");
        int orphans = 0;
        std::string failures;
        for (const auto& f : files) {
          const pipeline::Study s = pipeline::load_study(f, paths.source_root.string());
          std::set<std::string> tiers(o->tiers.begin(), o->tiers.end());
          if (o->tiers.empty()) {
            tiers = {"quick", "full"};
            for (const auto& [t, _] : s.tiers) tiers.insert(t);
          }
          for (const auto& tier : tiers) {
            orphans += pipeline::ResultStore(pipeline::study_results_dir(paths.results_root, s, tier)).remove_orphans();
            const auto o2 = pipeline::collect_study(s, tier, paths.results_root);
            std::set<std::string> seen;
            int n = 0, ok = 0, bad = 0, running = 0, pending = 0;
            for (const auto& r : o2.runs) {
              if (!seen.insert(r.key).second) continue;
              ++n;
              if (r.status == "ok") ++ok;
              else if (r.status == "running") ++running;
              else if (r.status == "missing") ++pending;
              else {
                ++bad;
                failures += fmt::format("  {} [{}] {} {}: {}\n", s.name, tier, r.key, r.status, r.message);
              }
            }
            std::cout << fmt::format("{:<32} {:<6} {:>6} {:>6} {:>7} {:>7} {:>7}\n", s.name, tier, n, ok, bad, running, pending);
          }
        }
        if (o->failed && !failures.empty()) std::cout << "\nfailed runs:\n" << failures;
        if (orphans) std::cout << fmt::format("\nremoved {} temporary folders left by killed runs\n", orphans);
        const auto jobs = pipeline::read_job_records(paths.results_root);
        if (!jobs.empty()) {
          std::cout << "\nSlurm submissions (latest last):\n";
          std::vector<std::string> ids;
          for (size_t i = jobs.size() > 5 ? jobs.size() - 5 : 0; i < jobs.size(); ++i) {
            const auto& j = jobs[i];
            std::cout << fmt::format("  {} array {} report {} [{}] {} ({})\n", j.submitted_utc, j.array_job, j.report_job, j.tier, j.studies,
                                     j.job_dir);
            ids.push_back(j.array_job);
            ids.push_back(j.report_job);
          }
          const auto queued = pipeline::queue_states(ids);
          if (queued.empty()) std::cout << "  none of these is in the Slurm queue now\n";
          for (const auto& q : queued) std::cout << "  queued: " << q << "\n";
        }
        return 0;
      };
    },
    45};

}  // namespace
}  // namespace grainlab
