#pragma once
// Reports. Per study and tier (results/<study>/<tier>/): report.md, tables as .md and .csv, verdicts.csv,
// errata.csv, provenance.csv, summary.txt (the verdict summary line) and report.html.part (the study's
// section of the pages). For all studies: results/index.html (claims coverage per paper, then every
// study: verdicts, errata, figures, tables, run provenance) and results/paper_<P>.html per paper (its
// claims with verdict, source and reason, then the studies that judge them). Coverage: coverage.hpp.
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "pipeline/analysis.hpp"

namespace grainlab::pipeline {

/// Writes the per-study files (figures included) and returns the analysis' verdict summary line.
std::string write_study_report(const Study& study, const std::string& tier, const RunOutcome& outcome, Analysis& a,
                               const std::filesystem::path& results_root, const std::string& source_root, std::ostream& log);

/// Writes results_root/index.html and results_root/paper_<P>.html from the report.html.part files of
/// `studies` (names) at `tier`. The claim files are found from `claims_csv` (coverage.hpp, claim_files).
void write_index(const std::filesystem::path& results_root, const std::vector<std::string>& studies, const std::string& tier,
                 const std::string& claims_csv);

}  // namespace grainlab::pipeline
