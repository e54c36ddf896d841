// Top-level flows (see driver.hpp).
#include "pipeline/driver.hpp"

#include <limits>
#include <ostream>

#include <fmt/format.h>

#include "pipeline/report.hpp"
#include "pipeline/version.hpp"

namespace grainlab::pipeline {
namespace fs = std::filesystem;

Paths default_paths() {
  Paths p;
  p.source_root = source_dir();
  p.results_root = p.source_root / "results";
  return p;
}

std::string resolve_study(const Paths& paths, const std::string& s) {
  if (fs::exists(s) && fs::is_regular_file(s)) return s;
  const fs::path named = paths.studies_dir() / (s + ".toml");
  if (fs::exists(named)) return named.string();
  std::string known;
  for (const auto& f : study_files(paths.studies_dir().string())) known += (known.empty() ? "" : ", ") + fs::path(f).stem().string();
  throw StudyError(fmt::format("no study '{}' (neither a file nor studies/{}.toml; known: {})", s, s, known));
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
  if (options.allow_large_sweep)
    for (auto& s : studies) s.max_runs = std::numeric_limits<std::size_t>::max();
  for (const auto& s : studies) expand(s, tier);  // sweep errors before any run
  int rc = 0;
  for (const auto& s : studies) {
    RunOutcome o = run_study(s, tier, paths.results_root, options, log);
    if (options.dry_run) continue;
    Analysis a = analyse(s, o, paths.source_root.string());
    out << write_study_report(s, tier, o, a, paths.results_root, paths.source_root.string(), log) << "\n";
    for (const auto& v : a.verdicts)
      if (v.verdict == "fail") out << fmt::format("  FAIL {} ({} {}): {}\n", v.id, v.claim, v.source, v.detail);
    if (!a.passed()) rc = 1;
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
