// `grainlab describe EXPERIMENT`: the parameter table of an experiment; without a name, all experiments.
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/command.hpp"
#include "experiments/experiment.hpp"

namespace grainlab {
namespace {

void describe(const Experiment& e) {
  fmt::print("{} — {}\n\n", e.name, e.description);
  fmt::print("| parameter | type | unit | default | range | description |\n|---|---|---|---|---|---|\n");
  for (const auto& p : e.parameters) {
    std::string range;
    if (p.min || p.max)
      range = fmt::format("[{}, {}]", p.min ? fmt::format("{}", *p.min) : "-inf", p.max ? fmt::format("{}", *p.max) : "inf");
    fmt::print("| {} | {} | {} | {} | {} | {} |\n", p.name, to_string(p.type), p.unit, to_string(p.default_value), range,
               p.description);
  }
  if (!e.scene_stages.empty()) fmt::print("\nTakes a [scene] (docs/studies.md); its stages: {}\n", fmt::join(e.scene_stages, ", "));
}

const CommandRegistration reg{"describe", "Print the parameters of an experiment (all experiments without a name)",
                              [](CLI::App& cmd) {
                                auto name = std::make_shared<std::string>();
                                cmd.add_option("experiment", *name, "experiment name");
                                return [name] {
                                  if (!name->empty()) {
                                    describe(find_experiment(*name));
                                    return 0;
                                  }
                                  for (const auto& [n, e] : experiments()) {
                                    describe(e);
                                    fmt::print("\n");
                                  }
                                  return 0;
                                };
                              },
                              20};

}  // namespace
}  // namespace grainlab
