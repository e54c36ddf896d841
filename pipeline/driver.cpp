// Top-level flows (see driver.hpp).
#include "pipeline/driver.hpp"

#include <algorithm>
#include <ostream>
#include <system_error>

#include <fmt/format.h>

#include "pipeline/locate.hpp"
#include "pipeline/report.hpp"
#include "pipeline/version.hpp"

namespace grainlab::pipeline {
namespace fs = std::filesystem;

Paths default_paths() {
  Paths p;
  std::error_code ec;
  const auto found = find_project_root(fs::current_path(ec));
  p.source_root = found ? *found : fs::path(source_dir());
  p.results_root = p.source_root / "results";
  const PathOverrides& o = path_overrides();
  if (!o.studies.empty()) p.studies_override = o.studies;
  if (!o.results.empty()) p.results_root = o.results;
  return p;
}

std::string resolve_study(const Paths& paths, const std::string& s) {
  if (fs::exists(s) && fs::is_regular_file(s)) return s;
  // "name" and "name.toml" both name studies/name.toml (never name.toml.toml).
  const bool has_ext = fs::path(s).extension() == ".toml";
  const fs::path named = paths.studies_dir() / (has_ext ? s : s + ".toml");
  if (fs::is_regular_file(named)) return named.string();
  std::string known;
  for (const auto& f : study_files(paths.studies_dir().string())) known += (known.empty() ? "" : ", ") + fs::path(f).stem().string();
  throw StudyError(fmt::format("no study '{}' (neither a file nor {}; known: {})", s, named.string(), known));
}

namespace {
std::vector<std::string> index_names(const Paths& paths) {
  std::vector<std::string> names;
  for (const auto& f : study_files(paths.studies_dir().string())) {
    try {
      names.push_back(load_study(f, paths.source_root.string()).name);
    } catch (const std::exception&) {
      names.push_back(fs::path(f).stem().string());
    }
  }
  return names;
}
}  // namespace

int run_studies(const std::vector<std::string>& names, const std::string& tier, const RunOptions& options, const Paths& paths,
                std::ostream& out, std::ostream& log) {
  std::vector<Study> studies;
  for (const auto& n : names) studies.push_back(load_study(resolve_study(paths, n), paths.source_root.string()));
  for (const auto& s : studies) expand(s, tier);  // sweep errors before any run
  int rc = 0;
  for (const auto& s : studies) {
    RunOutcome o = run_study(s, tier, paths.results_root, options, log);
    if (options.dry_run) continue;
    Analysis a = analyse(s, o, paths.source_root.string());
    out << write_study_report(s, tier, o, a, paths.results_root, paths.source_root.string(), log) << "\n";
    for (const auto& v : a.verdicts)
      if (v.verdict == "fail") out << fmt::format("  FAIL {} ({} {}): {}\n", v.id, v.claim, v.source, v.detail);
    if (!a.passed()) rc = std::max(rc, 1);
    // A run that went unstable (core/stability_guard.hpp: every InstabilityError says "unstable at step")
    // is exit 3, above a failed check.
    for (const auto& r : o.runs)
      if (r.status == "failed" && r.message.find("unstable at step") != std::string::npos) rc = 3;
  }
  if (!options.dry_run) {
    write_index(paths.results_root, index_names(paths), tier, paths.claims_csv().string());
    out << "wrote " << (paths.results_root / "index.html").string() << "\n";
  }
  return rc;
}

int report_all(const std::string& tier, const Paths& paths, std::ostream& out, std::ostream& log) {
  int rc = 0;
  for (const auto& f : study_files(paths.studies_dir().string())) {
    const Study s = load_study(f, paths.source_root.string());
    RunOutcome o = collect_study(s, tier, paths.results_root);
    Analysis a = analyse(s, o, paths.source_root.string());
    out << write_study_report(s, tier, o, a, paths.results_root, paths.source_root.string(), log) << "\n";
    if (!a.passed()) rc = 1;
  }
  write_index(paths.results_root, index_names(paths), tier, paths.claims_csv().string());
  out << "wrote " << (paths.results_root / "index.html").string() << "\n";
  return rc;
}

}  // namespace grainlab::pipeline
