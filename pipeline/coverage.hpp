#pragma once
// Claims coverage: one verdict per claim of the claim index (validation/claims.csv), from four categories:
//   pass / fail        a check ran (study:check in the verdict-source file). A check verdict "not reproduced"
//                      (we ran it, and it disagrees or cannot be judged as stated) counts as fail;
//   not reproducible   the verdict-source file records why, read from the claim (missing geometry,
//                      hardware-bound, the paper's own inconsistency); never without a reason;
//   not attempted      nothing has judged it yet (no check, or its study was not run at this tier).
// The verdict-source file validation/claim_verdicts.csv (beside claims.csv) says, per claim, what decides
// it; it is regenerated from claims.csv and the studies' [[check]] `claim` keys by
// `grainlab report --claims --write-sources`, which keeps its hand-written `contradicts_ok` column.
// The audit reports: checks citing claim IDs not in the index, a verdict-source file out of step with
// the studies, a "not reproducible" without a reason, and one claim given pass by one check and
// fail by another without a `contradicts_ok` reason.
#include <filesystem>
#include <string>
#include <vector>

namespace grainlab::pipeline {

/// Where the claim files live: the index, the verdict-source file beside it, the studies folder.
struct ClaimFiles {
  std::filesystem::path claims_csv, sources_csv, studies_dir;
};
/// Convention: <source>/validation/claims.csv, <source>/validation/claim_verdicts.csv, <source>/studies.
ClaimFiles claim_files(const std::filesystem::path& claims_csv);

struct Claim {
  std::string id, paper, quantity, reproducible;  ///< reproducible: the index's `yes` / `later: …` / `no: …`
};
std::vector<Claim> read_claims(const std::filesystem::path& claims_csv);

/// A [[check]] of a study file and the claim IDs it cites.
struct Citation {
  std::string study, check, kind, where;  ///< where: "file:line" of the check
  std::vector<std::string> claims;
};
/// Every [[check]] with a non-empty `claim` in studies_dir/*.toml (read as TOML only, so a study that
/// fails to load for other reasons is still audited).
std::vector<Citation> scan_citations(const std::filesystem::path& studies_dir);

struct VerdictSource {
  std::string id, paper;
  std::string source;          ///< "study:check[ study:check…]", "reason" or "none"
  std::string reason;          ///< reason: why not reproducible; none: what it waits for
  std::string contradicts_ok;  ///< why checks citing this claim may disagree (hand-written)
};
std::vector<VerdictSource> read_sources(const std::filesystem::path& sources_csv);
/// The sources implied by the index and the studies; contradicts_ok cells are taken from `previous`.
std::vector<VerdictSource> derive_sources(const std::vector<Claim>& claims, const std::vector<Citation>& citations,
                                          const std::vector<VerdictSource>& previous);
std::string sources_csv_text(const std::vector<VerdictSource>& sources);

struct ClaimVerdict {
  std::string id, paper, quantity;
  std::string verdict;  ///< "pass", "fail", "not reproducible", "not attempted"
  std::string source;   ///< study:check list, or "recorded reason", or "none"
  std::string detail;   ///< the deciding check's detail, the recorded reason, or what is missing
};

struct ClaimAudit {
  std::vector<ClaimVerdict> claims;  ///< index order
  std::vector<std::string> papers;   ///< index order of first appearance
  std::vector<Citation> citations;
  std::vector<std::string> index_errors;    ///< unknown IDs, stale/missing sources, reasons missing
  std::vector<std::string> contradictions;  ///< pass and fail for one claim without contradicts_ok
};

/// Judges every claim from the stored verdicts (results_root/<study>/<tier>/verdicts.csv).
ClaimAudit audit_claims(const ClaimFiles& files, const std::filesystem::path& results_root, const std::string& tier);

struct CoverageRow {
  std::string paper;
  int claims = 0, pass = 0, fail = 0, not_reproducible = 0, not_attempted = 0;
};
/// One row per paper (index order) and a last row "total".
std::vector<CoverageRow> coverage_rows(const ClaimAudit& audit);
/// Markdown table of the counts; with `link_pages` paper names link to paper_<P>.html.
std::string coverage_markdown(const std::vector<CoverageRow>& rows, bool link_pages = false);
/// Markdown table of one paper's claims: id, verdict, source, reason/detail (one line).
std::string claims_list_markdown(const ClaimAudit& audit, const std::string& paper);
std::string paper_page_name(const std::string& paper);  ///< paper_<P>.html

}  // namespace grainlab::pipeline
