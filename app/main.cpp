// grainlab: granular-matter simulation and paper-reproduction pipeline. Subcommands register
// themselves (see command.hpp); this file parses, dispatches and turns exceptions into exit codes.
#include <algorithm>
#include <iostream>
#include <vector>

#include "app/command.hpp"
#include "core/error.hpp"
#include "pipeline/version.hpp"

namespace grainlab {
namespace {
struct Entry {
  std::string name, description;
  CommandSetup setup;
  int order;
};
std::vector<Entry>& commands() {
  static std::vector<Entry> c;
  return c;
}
}  // namespace

CommandRegistration::CommandRegistration(std::string name, std::string description, CommandSetup setup, int order) {
  commands().push_back({std::move(name), std::move(description), std::move(setup), order});
}
}  // namespace grainlab

int main(int argc, char** argv) {
  using namespace grainlab;
  CLI::App app{"grainlab — granular-matter simulation (smooth and nonsmooth DEM) and the pipeline that\n"
               "reproduces the papers' experiments from TOML study files."};
  app.set_version_flag("--version", std::string("grainlab ") + version_string());
  app.require_subcommand(1);
  auto& list = commands();
  std::stable_sort(list.begin(), list.end(), [](const Entry& a, const Entry& b) { return a.order < b.order; });
  std::vector<std::pair<CLI::App*, CommandAction>> actions;
  for (const Entry& e : list) {
    CLI::App* sub = app.add_subcommand(e.name, e.description);
    actions.emplace_back(sub, e.setup(*sub));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    for (auto& [sub, action] : actions)
      if (sub->parsed()) return action();
  } catch (const InstabilityError& e) {
    std::cerr << "grainlab: simulation unstable: " << e.what() << "\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "grainlab: error: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
