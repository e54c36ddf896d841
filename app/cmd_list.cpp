// `grainlab list`: the studies (name, experiment, runs per tier, title) and the registered experiments.
#include <iostream>

#include <filesystem>

#include <fmt/format.h>

#include "app/command.hpp"
#include "pipeline/driver.hpp"

namespace grainlab {
namespace {

const CommandRegistration reg{"list", "List the studies in studies/ and the registered experiments",
                              [](CLI::App&) {
                                return [] {
                                  const auto paths = pipeline::default_paths();
                                  // Resolved paths first: which checkout this binary reads and writes.
                                  fmt::print("Project root: {}\nStudies:      {}\nResults:      {}\n\n",
                                             paths.source_root.string(), paths.studies_dir().string(),
                                             paths.results_root.string());
                                  fmt::print("Studies ({}):\n", paths.studies_dir().string());
                                  for (const auto& f : pipeline::study_files(paths.studies_dir().string())) {
                                    try {
                                      const auto s = pipeline::load_study(f, paths.source_root.string());
                                      fmt::print("  {:<24} {:<16} quick {:>4} runs, full {:>4} runs  {}{}\n", s.name, s.runs_own() ? s.experiment : "(imports)",
                                                 pipeline::sweep_size(s, "quick"), pipeline::sweep_size(s, "full"), s.title,
                                                 s.experiment_available ? "" : "  [experiment not available]");
                                    } catch (const std::exception& e) {
                                      fmt::print("  {:<24} ERROR: {}\n", std::filesystem::path(f).stem().string(), e.what());
                                    }
                                  }
                                  fmt::print("Experiments:\n");
                                  for (const auto& [n, e] : experiments()) fmt::print("  {:<24} {}\n", n, e.description);
                                  return 0;
                                };
                              },
                              10};

}  // namespace
}  // namespace grainlab
