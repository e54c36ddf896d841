#pragma once
// Analysis of a study's stored runs: the data frame (one row per run: parameters + metrics + per-run
// derived columns), derived scalars (value at a condition, minimum sweep value reaching a threshold,
// means, fits with standard errors), checks with verdicts, errata. Pure computation on stored data
// (plus reading reference CSVs from validation/); single-threaded.
#include <map>
#include <string>
#include <vector>

#include "pipeline/runner.hpp"
#include "pipeline/study.hpp"

namespace grainlab::pipeline {

struct Row {
  std::string key, status, message;
  std::map<std::string, double> num;       ///< numeric parameters, metrics, derived columns
  std::map<std::string, std::string> text; ///< text parameters
  bool matches(const Where& where) const;  ///< every key equals one of its listed values
};

struct Verdict {
  std::string id, claim, paper, source, seed, lines, description;
  std::string verdict;  ///< "pass", "fail", "not reproduced" (ran: disagrees or cannot be judged), "not run"
  std::string detail;
  std::string table_md;  ///< optional comparison table (reference_table checks)
};

struct Erratum {
  std::string where, quantity, printed, recomputed, ours, note;
};

struct Analysis {
  std::vector<Row> rows;
  std::map<std::string, double> scalars;
  std::vector<Verdict> verdicts;
  std::vector<Erratum> errata;
  std::vector<std::string> figures;  ///< png paths relative to the study results dir
  std::vector<std::pair<std::string, std::string>> tables_md;  ///< (title, markdown)
  int runs_ok = 0, runs_failed = 0, runs_missing = 0;
  bool passed() const;  ///< no failed check and no failed run
};

/// Builds the frame and evaluates derived quantities and checks. `source_root` locates reference files.
Analysis analyse(const Study& study, const RunOutcome& outcome, const std::string& source_root);

/// Simple CSV reader (RFC 4180 quotes); first line is the header.
std::vector<std::map<std::string, std::string>> read_csv(const std::string& path);

}  // namespace grainlab::pipeline
