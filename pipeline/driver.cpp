// Top-level flows (see driver.hpp).
#include "pipeline/driver.hpp"

#include <algorithm>
#include <limits>
#include <ostream>
#include <system_error>

#include <fmt/format.h>

#include "pipeline/locate.hpp"
#include "pipeline/files.hpp"
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

namespace {
/// A study to run, and whether it was named on the command line (--force applies to named studies only).
struct ToRun {
  Study study;
  bool named = false;
};

/// Adds `s` after the studies it imports (recursively, depth first), each study file once: the analysis of
/// an importing study finds its imports' runs stored. A study named on the command line stays named.
void add_with_imports(std::vector<ToRun>& list, const Study& s, bool named) {
  for (const auto& imp : s.imported) add_with_imports(list, imp, false);
  const auto file = fs::weakly_canonical(s.file);
  for (auto& t : list)
    if (fs::weakly_canonical(t.study.file) == file) {
      t.named = t.named || named;
      return;
    }
  list.push_back({s, named});
}
}  // namespace

int run_studies(const std::vector<std::string>& names, const std::string& tier, const RunOptions& options, const Paths& paths,
                std::ostream& out, std::ostream& log) {
  std::vector<ToRun> studies;
  for (const auto& n : names) add_with_imports(studies, load_study(resolve_study(paths, n), paths.source_root.string()), true);
  if (options.allow_large_sweep)
    for (auto& t : studies) t.study.max_runs = std::numeric_limits<std::size_t>::max();
  // Imported studies that were not named are reused where stored: --force recomputes only what was named.
  auto options_for = [&](const ToRun& t) {
    RunOptions o = options;
    o.force = options.force && t.named;
    return o;
  };
  Progress progress;
  for (const auto& t : studies)
    progress.total += plan_study(t.study, tier, paths.results_root, options_for(t)).todo.size();  // sweep errors first
  if (!options.dry_run) require_writable(paths.results_root);
  const bool shard = options.shard.count > 1;
  int rc = 0, unstable = 0;
  for (const auto& t : studies) {
    const Study& s = t.study;
    RunOptions opts = options_for(t);
    opts.progress = &progress;
    RunOutcome o = run_study(s, tier, paths.results_root, opts, log);
    unstable += o.unstable;
    if (o.failed || o.store_failures) rc = 1;
    if (options.dry_run) continue;
    if (shard) {
      out << fmt::format("{} [{}] shard {}/{}: {} computed, {} already stored, {} failed{}\n", s.name, tier, options.shard.index,
                         options.shard.count, o.computed, o.reused, o.failed,
                         o.store_failures ? fmt::format(" ({} could not be stored)", o.store_failures) : "");
      continue;
    }
    Analysis a = analyse(s, o, paths.source_root.string());
    out << write_study_report(s, tier, o, a, paths.results_root, paths.source_root.string(), log) << "\n";
    for (const auto& v : a.verdicts)
      if (v.verdict == "fail") out << fmt::format("  FAIL {} ({} {}): {}\n", v.id, v.claim, v.source, v.detail);
    if (o.store_failures) out << fmt::format("  {} runs were computed but could not be stored\n", o.store_failures);
    if (!a.passed()) rc = 1;
  }
  if (!options.dry_run && !shard) {
    write_index(paths.results_root, index_names(paths), tier, paths.claims_csv().string());
    out << "wrote " << (paths.results_root / "index.html").string() << "\n";
  }
  if (shard) out << "when every shard is done: grainlab report --tier " << tier << " --results " << paths.results_root.string() << "\n";
  if (unstable) {
    out << fmt::format("{} runs went unstable (see their messages)\n", unstable);
    return 3;
  }
  return rc;
}

int report_all(const std::vector<std::string>& names, const std::string& tier, const Paths& paths, std::ostream& out,
               std::ostream& log) {
  std::vector<std::string> files;
  for (const auto& n : names) files.push_back(resolve_study(paths, n));
  if (names.empty()) files = study_files(paths.studies_dir().string());
  int rc = 0;
  for (const auto& f : files) {
    const Study s = load_study(f, paths.source_root.string());
    RunOutcome o = collect_study(s, tier, paths.results_root);
    Analysis a = analyse(s, o, paths.source_root.string());
    out << write_study_report(s, tier, o, a, paths.results_root, paths.source_root.string(), log) << "\n";
    for (const auto& r : o.runs)
      if (r.status == "failed" || r.status == "corrupt") out << fmt::format("  {} run {}: {}\n", r.status, r.key, r.message);
    if (!a.passed() || o.failed) rc = 1;
  }
  write_index(paths.results_root, index_names(paths), tier, paths.claims_csv().string());
  out << "wrote " << (paths.results_root / "index.html").string() << "\n";
  return rc;
}

}  // namespace grainlab::pipeline
