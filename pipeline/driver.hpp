#pragma once
// The top-level flows behind the CLI: run studies (expand, execute missing runs, analyse, report) and
// regenerate reports from the store. Exit codes: 0 all good, 1 a check failed or a run failed (or
// could not be stored), 2 bad input or an unwritable results folder (raised as exceptions, mapped in
// main), 3 a run went unstable.
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "pipeline/runner.hpp"

namespace grainlab::pipeline {

struct Paths {
  std::filesystem::path source_root;   ///< project root: studies/ and validation/ live here
  std::filesystem::path results_root;  ///< default <source_root>/results
  std::filesystem::path studies_override;  ///< `--studies DIR`; empty: <source_root>/studies
  std::filesystem::path studies_dir() const { return studies_override.empty() ? source_root / "studies" : studies_override; }
  std::filesystem::path claims_csv() const { return source_root / "validation" / "claims.csv"; }
};

/// The project root found from the working directory (pipeline/locate.hpp), else the compiled-in source
/// tree; then the global --studies / --results overrides.
Paths default_paths();

/// Resolves "name" (studies/name.toml) or a path to a study file.
std::string resolve_study(const Paths& paths, const std::string& name_or_path);

/// Loads every study first (all input errors before any run), checks that the results folder is
/// writable, then runs and reports each, every study after the studies it imports (`[study] imports`;
/// those run and report too, and `--force` recomputes only the studies named). A shard (options.shard) only computes: its reports are
/// written by `grainlab report` once every shard is done.
int run_studies(const std::vector<std::string>& studies, const std::string& tier, const RunOptions& options, const Paths& paths,
                std::ostream& out, std::ostream& log);

/// Re-analyses the named studies (every study of studies/ when empty) from the store and rewrites their
/// reports and index.html.
int report_all(const std::vector<std::string>& studies, const std::string& tier, const Paths& paths, std::ostream& out,
               std::ostream& log);

}  // namespace grainlab::pipeline
