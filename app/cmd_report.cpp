// `grainlab report [STUDY...] [--tier T] [--claims [--list PAPER] [--write-sources]]`: re-analyse the studies
// (every study of studies/ unless named) from the store (no runs), rewrite the reports, results/index.html
// and the per-paper pages; --claims prints the claims coverage per paper (pass / fail / not reproducible /
// not attempted) and audits the claim index.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "app/command.hpp"
#include "core/io/atomic_file.hpp"
#include "pipeline/coverage.hpp"
#include "pipeline/driver.hpp"
#include "pipeline/report.hpp"

namespace grainlab {
namespace {

struct Options {
  std::vector<std::string> studies;
  std::string tier = "quick", results, claims, list;
  bool claims_only = false, write_sources = false;
};

// Exit 2 when the claim index does not hold up (unknown IDs, verdict-source file out of step, a "not
// reproducible" without a reason), 1 when two checks give one claim contradictory verdicts unexplained.
int claims(const Options& o, const pipeline::Paths& paths, const std::string& claims_csv) {
  if (!std::filesystem::exists(claims_csv)) {
    std::cerr << "grainlab: no claim index at " << claims_csv << "\n";
    return 2;
  }
  const auto files = pipeline::claim_files(claims_csv);
  if (o.write_sources) {
    std::vector<pipeline::VerdictSource> previous;
    if (std::filesystem::exists(files.sources_csv)) previous = pipeline::read_sources(files.sources_csv);
    const auto sources = pipeline::derive_sources(pipeline::read_claims(files.claims_csv), pipeline::scan_citations(files.studies_dir), previous);
    io::write_file_atomically(files.sources_csv, pipeline::sources_csv_text(sources));
    std::cout << "wrote " << files.sources_csv.string() << " (" << sources.size() << " claims)\n";
  }
  const auto audit = pipeline::audit_claims(files, paths.results_root, o.tier);
  if (o.list.empty()) {
    std::cout << pipeline::coverage_markdown(pipeline::coverage_rows(audit));
  } else {
    if (std::find(audit.papers.begin(), audit.papers.end(), o.list) == audit.papers.end()) {
      std::cerr << fmt::format("grainlab: no paper '{}' in {} (papers: {})\n", o.list, claims_csv, fmt::join(audit.papers, ", "));
      return 2;
    }
    std::cout << pipeline::claims_list_markdown(audit, o.list);
  }
  for (const auto& e : audit.index_errors) std::cerr << "error: " << e << "\n";
  for (const auto& e : audit.contradictions) std::cerr << "contradiction: " << e << "\n";
  return !audit.index_errors.empty() ? 2 : !audit.contradictions.empty() ? 1 : 0;
}

const CommandRegistration reg{
    "report", "Rewrite the reports and results/index.html from stored runs; --claims: coverage per paper",
    [](CLI::App& cmd) {
      auto o = std::make_shared<Options>();
      cmd.add_option("studies", o->studies, "studies to report (default: every study in studies/)");
      cmd.add_option("--tier", o->tier, "tier whose results are reported")->capture_default_str();
      cmd.add_flag("--claims", o->claims_only,
                   "print the claims per paper as pass / fail / not reproducible / not attempted, audit the claim index, and exit");
      cmd.add_option("--list", o->list, "with --claims: list each claim of PAPER (I, II, III, IV, V, Gavrilov) with verdict, source and reason");
      cmd.add_flag("--write-sources", o->write_sources,
                   "with --claims: regenerate validation/claim_verdicts.csv from the claim index and the studies (keeps contradicts_ok)");
      cmd.add_option("--claims-file", o->claims, "claim index (default: <source>/validation/claims.csv)");
      cmd.add_option("--results", o->results, "results directory (default: <project root>/results)");
      return [o] {
        auto paths = pipeline::default_paths();
        if (!o->results.empty()) paths.results_root = o->results;
        const std::string claims_csv = o->claims.empty() ? paths.claims_csv().string() : o->claims;
        if (o->claims_only) return claims(*o, paths, claims_csv);
        if (!o->list.empty() || o->write_sources) {
          std::cerr << "grainlab: --list and --write-sources go with --claims\n";
          return 2;
        }
        return pipeline::report_all(o->studies, o->tier, paths, std::cout, std::cerr);
      };
    },
    40};

}  // namespace
}  // namespace grainlab
