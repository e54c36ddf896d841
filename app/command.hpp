#pragma once
// Subcommands of the grainlab program. Each cmd_*.cpp registers one:
//
//   static const grainlab::CommandRegistration reg{"demo", "Run a demo simulation",
//       [](CLI::App& cmd) { auto opts = std::make_shared<Options>(); cmd.add_option(...);
//                           return [opts] { ...; return 0; }; }};
//
// The setup function declares the options and returns the action, run after parsing; its return
// value is the exit code. Exceptions are caught in main and reported as errors (exit code 2).
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace grainlab {

using CommandAction = std::function<int()>;
using CommandSetup = std::function<CommandAction(CLI::App&)>;

struct CommandRegistration {
  CommandRegistration(std::string name, std::string description, CommandSetup setup, int order = 50);
};

}  // namespace grainlab
