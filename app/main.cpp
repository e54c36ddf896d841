// grainlab: granular-matter simulation and paper-reproduction pipeline. Subcommands register
// themselves (see command.hpp); this file parses, dispatches and turns exceptions into exit codes.
#include <algorithm>
#include <iostream>
#include <vector>

#include "app/command.hpp"
#include "core/error.hpp"
#include "pipeline/locate.hpp"
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

namespace {
// The first word that is neither an option nor an option's value: the subcommand the user meant.
std::string first_command_word(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--studies" || a == "--results") {
      ++i;
      continue;
    }
    if (!a.empty() && a[0] != '-') return a;
  }
  return "";
}

// Argument errors exit 2 (bad input, as every other input error) naming the offending word; help and
// --version exit 0 through CLI11 as before.
int parse_error(const CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  if (e.get_exit_code() == 0) return app.exit(e);
  std::string message = e.what();
  const std::string word = first_command_word(argc, argv);
  std::string known;
  bool is_command = false;
  for (const Entry& c : commands()) {
    known += (known.empty() ? "" : ", ") + c.name;
    is_command = is_command || c.name == word;
  }
  if (!word.empty() && !is_command) message = "unknown command '" + word + "' (known: " + known + ")";
  else if (word.empty() && message.find("subcommand is required") != std::string::npos)
    message = "a command is required (known: " + known + ")";
  std::cerr << "grainlab: error: " << message << "\nRun 'grainlab --help' for usage.\n";
  return 2;
}
}  // namespace
}  // namespace grainlab

int main(int argc, char** argv) {
  using namespace grainlab;
  CLI::App app{"grainlab — granular-matter simulation (smooth and nonsmooth DEM) and the pipeline that\n"
               "reproduces the papers' experiments from TOML study files."};
  app.set_version_flag("--version", std::string("grainlab ") + version_string());
  app.require_subcommand(1);
  // Global: where studies and results live (default: the project root found from the working directory).
  auto& where = pipeline::path_overrides();
  app.add_option("--studies", where.studies, "studies folder (default: <project root>/studies)");
  app.add_option("--results", where.results, "results folder (default: <project root>/results)");
  app.fallthrough();  // `grainlab list --studies DIR` as well as `grainlab --studies DIR list`
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
    return parse_error(app, e, argc, argv);
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
