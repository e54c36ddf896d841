#pragma once
// Reports. Per study and tier (results/<study>/<tier>/): report.md, tables as .md and .csv, verdicts.csv,
// errata.csv and report.html.part (the study's section of the index). For all studies: results/index.html
// (figures, tables, verdicts, errata, claims coverage per paper). Coverage reads validation/claims.csv.
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "pipeline/analysis.hpp"

namespace grainlab::pipeline {

/// Writes the per-study files (figures included) and returns the analysis' verdict summary line.
std::string write_study_report(const Study& study, const std::string& tier, const RunOutcome& outcome, Analysis& a,
                               const std::filesystem::path& results_root, const std::string& source_root, std::ostream& log);

struct CoverageRow {
  std::string paper;
  int in_ledger = 0, judged = 0, passed = 0, failed = 0, not_reproduced = 0;
};

/// Claims per paper from `claims_csv` against the verdicts.csv files found under results_root/*/<tier>/.
std::vector<CoverageRow> coverage(const std::string& claims_csv, const std::filesystem::path& results_root, const std::string& tier);
std::string coverage_markdown(const std::vector<CoverageRow>& rows);

/// Writes results_root/index.html from the report.html.part files of `studies` (names) at `tier`.
void write_index(const std::filesystem::path& results_root, const std::vector<std::string>& studies, const std::string& tier,
                 const std::string& claims_csv);

}  // namespace grainlab::pipeline
