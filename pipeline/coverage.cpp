// Claims coverage and its audit (see coverage.hpp).
#include "pipeline/coverage.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "pipeline/analysis.hpp"
#include "pipeline/html.hpp"
#include "pipeline/study.hpp"

namespace grainlab::pipeline {
namespace fs = std::filesystem;

namespace {
std::string cell(const std::map<std::string, std::string>& row, const std::string& k) {
  auto it = row.find(k);
  return it == row.end() ? std::string() : it->second;
}
std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}
std::vector<std::string> words(const std::string& s) {  // split on spaces and commas
  std::vector<std::string> out;
  std::string w;
  for (char c : s + " ")
    if (c == ' ' || c == ',' || c == '\t') {
      if (!w.empty()) out.push_back(w), w.clear();
    } else w += c;
  return out;
}
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}
bool starts(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }
/// At most about n bytes, cut at a UTF-8 character boundary, with an ellipsis (the pages show it whole).
std::string shorten(const std::string& s, size_t n) {
  if (s.size() <= n) return s;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n) + " …";
}
}  // namespace

ClaimFiles claim_files(const fs::path& claims_csv) {
  return {claims_csv, claims_csv.parent_path() / "claim_verdicts.csv", claims_csv.parent_path().parent_path() / "studies"};
}

std::vector<Claim> read_claims(const fs::path& claims_csv) {
  std::vector<Claim> out;
  for (const auto& r : read_csv(claims_csv.string())) {
    if (cell(r, "id").empty()) continue;
    out.push_back({cell(r, "id"), cell(r, "paper"), cell(r, "quantity"), cell(r, "reproducible")});
  }
  return out;
}

std::vector<Citation> scan_citations(const fs::path& studies_dir) {
  std::vector<Citation> out;
  for (const auto& file : study_files(studies_dir.string())) {
    toml::table t;
    try {
      t = toml::parse_file(file);
    } catch (const toml::parse_error& e) {
      throw StudyError(fmt::format("{}:{}: {}", file, e.source().begin.line, e.description()));
    }
    const std::string study = t["study"]["name"].value_or(fs::path(file).stem().string());
    if (auto checks = t["check"].as_array())
      for (const auto& node : *checks) {
        const auto* c = node.as_table();
        if (!c) continue;
        Citation ci{study, (*c)["id"].value_or(std::string()), (*c)["kind"].value_or(std::string()), "", {}};
        const auto* claim = c->get("claim");
        if (!claim) continue;
        ci.where = fmt::format("{}:{}", file, claim->source().begin.line);
        ci.claims = words(claim->value_or(std::string()));
        if (!ci.claims.empty()) out.push_back(std::move(ci));
      }
  }
  return out;
}

std::vector<VerdictSource> read_sources(const fs::path& sources_csv) {
  std::vector<VerdictSource> out;
  for (const auto& r : read_csv(sources_csv.string()))
    out.push_back({cell(r, "id"), cell(r, "paper"), cell(r, "source"), cell(r, "reason"), cell(r, "contradicts_ok")});
  return out;
}

std::vector<VerdictSource> derive_sources(const std::vector<Claim>& claims, const std::vector<Citation>& citations,
                                          const std::vector<VerdictSource>& previous) {
  std::map<std::string, std::string> kept;
  for (const auto& p : previous) kept[p.id] = p.contradicts_ok;
  std::vector<VerdictSource> out;
  for (const auto& c : claims) {
    VerdictSource s{c.id, c.paper, "", "", kept[c.id]};
    for (const auto& ci : citations)
      for (const auto& id : ci.claims)
        if (id == c.id) s.source += (s.source.empty() ? "" : " ") + ci.study + ":" + ci.check;
    if (s.source.empty() && starts(c.reproducible, "no:")) s.source = "reason", s.reason = trim(c.reproducible.substr(3));
    else if (s.source.empty()) {
      s.source = "none";
      s.reason = starts(c.reproducible, "later:") ? "needs " + trim(c.reproducible.substr(6)) : "no check yet (the index marks it reproducible)";
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::string sources_csv_text(const std::vector<VerdictSource>& sources) {
  std::string t =
      "# Verdict source of every claim in claims.csv (docs/studies.md, \"Claims coverage\").\n"
      "# source: study:check (several separated by spaces) = the checks that judge it (pass / fail);\n"
      "#         reason = not reproducible, for the recorded reason (from claims.csv `no: ...`);\n"
      "#         none = not attempted (reason: what it waits for).\n"
      "# contradicts_ok: written by hand, why checks citing this claim may give different verdicts.\n"
      "# Regenerate after changing claims.csv or a study's claim keys: grainlab report --claims --write-sources\n"
      "id,paper,source,reason,contradicts_ok\n";
  for (const auto& s : sources)
    t += fmt::format("{},{},{},{},{}\n", csv_field(s.id), csv_field(s.paper), csv_field(s.source), csv_field(s.reason),
                     csv_field(s.contradicts_ok));
  return t;
}

ClaimAudit audit_claims(const ClaimFiles& files, const fs::path& results_root, const std::string& tier) {
  ClaimAudit a;
  const auto claims = read_claims(files.claims_csv);
  std::set<std::string> ids;
  for (const auto& c : claims) {
    if (!ids.insert(c.id).second) a.index_errors.push_back(fmt::format("{}: claim {} listed twice", files.claims_csv.string(), c.id));
    if (std::find(a.papers.begin(), a.papers.end(), c.paper) == a.papers.end()) a.papers.push_back(c.paper);
  }
  a.citations = scan_citations(files.studies_dir);
  for (const auto& ci : a.citations)
    for (const auto& id : ci.claims)
      if (!ids.count(id))
        a.index_errors.push_back(fmt::format("{}: check '{}' of study {} cites claim {}, which is not in {}", ci.where, ci.check, ci.study,
                                             id, files.claims_csv.filename().string()));

  // The verdict-source file is the statement judged from; it must agree with the index and the studies.
  const std::string regen = "regenerate with: grainlab report --claims --write-sources";
  std::vector<VerdictSource> recorded;
  if (fs::exists(files.sources_csv)) recorded = read_sources(files.sources_csv);
  else a.index_errors.push_back(fmt::format("{} is missing; {}", files.sources_csv.string(), regen));
  const auto expected = derive_sources(claims, a.citations, recorded);
  std::map<std::string, VerdictSource> by_id;
  for (const auto& s : recorded) {
    if (!ids.count(s.id)) a.index_errors.push_back(fmt::format("{}: {} is not in the claim index", files.sources_csv.string(), s.id));
    by_id[s.id] = s;
  }
  for (const auto& e : expected) {
    auto it = by_id.find(e.id);
    if (it == by_id.end()) {
      if (!recorded.empty()) a.index_errors.push_back(fmt::format("{}: no row for {}; {}", files.sources_csv.string(), e.id, regen));
      by_id[e.id] = e;
    } else if (it->second.source != e.source) {
      a.index_errors.push_back(fmt::format("{}: {} says source '{}', the index and studies say '{}'; {}", files.sources_csv.string(), e.id,
                                           it->second.source, e.source, regen));
    } else if (it->second.reason != e.reason && !(e.source == "reason" && trim(it->second.reason).empty())) {
      a.index_errors.push_back(fmt::format("{}: {} reason '{}' differs from claims.csv's '{}'; {}", files.sources_csv.string(), e.id,
                                           it->second.reason, e.reason, regen));
    }
    if (by_id[e.id].source == "reason" && trim(by_id[e.id].reason).empty())
      a.index_errors.push_back(fmt::format("{}: {} is not reproducible without a recorded reason", files.sources_csv.string(), e.id));
  }

  // Stored check verdicts per study (absent: the study was not run at this tier).
  std::map<std::string, std::optional<std::vector<std::map<std::string, std::string>>>> stored;
  auto verdicts_of = [&](const std::string& study) -> const auto& {
    auto it = stored.find(study);
    if (it != stored.end()) return it->second;
    const fs::path f = results_root / study / tier / "verdicts.csv";
    auto& slot = stored[study];
    if (fs::exists(f)) slot = read_csv(f.string());
    return slot;
  };

  for (const auto& c : claims) {
    const VerdictSource& s = by_id[c.id];
    ClaimVerdict v{c.id, c.paper, c.quantity, "", "", ""};
    if (s.source == "reason") {
      v.verdict = "not reproducible", v.source = "recorded reason", v.detail = s.reason;
    } else if (s.source == "none" || s.source.empty()) {
      v.verdict = "not attempted", v.source = "none", v.detail = s.reason;
    } else {
      v.source = s.source;
      std::string pass_detail, fail_detail, not_run, passes, fails;
      for (const auto& token : words(s.source)) {
        const size_t colon = token.find(':');
        const std::string study = token.substr(0, colon), check = colon == std::string::npos ? "" : token.substr(colon + 1);
        const auto& rows = verdicts_of(study);
        if (!rows) {
          if (not_run.empty()) not_run = fmt::format("study {} not run at tier {}", study, tier);
          continue;
        }
        bool found = false;
        for (const auto& r : *rows) {
          const auto cited = words(cell(r, "claim"));
          if (cell(r, "id") != check || std::find(cited.begin(), cited.end(), c.id) == cited.end()) continue;
          found = true;
          const std::string verdict = cell(r, "verdict"), detail = one_line(cell(r, "detail"));
          if (verdict == "pass") {
            passes += " " + token;
            if (pass_detail.empty()) pass_detail = token + ": " + detail;
          } else if (verdict == "fail" || verdict == "not reproduced") {
            fails += " " + token;
            if (fail_detail.empty()) fail_detail = token + ": " + (verdict == "fail" ? "" : "not reproduced: ") + detail;
          } else if (not_run.empty()) {
            not_run = token + ": " + verdict + (detail.empty() ? "" : ": " + detail);
          }
        }
        if (!found && not_run.empty()) not_run = fmt::format("{}: no stored verdict at tier {} (rerun the study)", token, tier);
      }
      if (words(s.source).size() == 1) {  // the source column names the one check already
        for (auto* d : {&pass_detail, &fail_detail})
          if (d->rfind(s.source + ": ", 0) == 0) d->erase(0, s.source.size() + 2);
      }
      if (!fails.empty()) v.verdict = "fail", v.detail = fail_detail;
      else if (!passes.empty()) v.verdict = "pass", v.detail = pass_detail;
      else v.verdict = "not attempted", v.detail = not_run;
      if (!fails.empty() && !passes.empty()) {
        if (trim(s.contradicts_ok).empty())
          a.contradictions.push_back(fmt::format("{}: pass from{} but fail from{}, and {} gives no contradicts_ok reason", c.id, passes,
                                                 fails, files.sources_csv.filename().string()));
        else v.detail += " (checks disagree: " + s.contradicts_ok + ")";
      }
    }
    a.claims.push_back(std::move(v));
  }
  return a;
}

std::vector<CoverageRow> coverage_rows(const ClaimAudit& audit) {
  std::vector<CoverageRow> rows;
  for (const auto& p : audit.papers) rows.push_back({p});
  rows.push_back({"total"});
  for (const auto& c : audit.claims)
    for (auto* r : {&rows[std::find(audit.papers.begin(), audit.papers.end(), c.paper) - audit.papers.begin()], &rows.back()}) {
      r->claims++;
      if (c.verdict == "pass") r->pass++;
      else if (c.verdict == "fail") r->fail++;
      else if (c.verdict == "not reproducible") r->not_reproducible++;
      else r->not_attempted++;
    }
  return rows;
}

std::string paper_page_name(const std::string& paper) { return "paper_" + paper + ".html"; }

std::string coverage_markdown(const std::vector<CoverageRow>& rows, bool link_pages) {
  std::string md = "| paper | claims | pass | fail | not reproducible | not attempted |\n|---|---|---|---|---|---|\n";
  for (const auto& r : rows) {
    const bool total = r.paper == "total";
    const std::string name = total ? "**total**" : link_pages ? fmt::format("[{}]({})", r.paper, paper_page_name(r.paper)) : r.paper;
    md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", name, r.claims, r.pass, r.fail, r.not_reproducible, r.not_attempted);
  }
  return md;
}

std::string claims_list_markdown(const ClaimAudit& audit, const std::string& paper) {
  std::string md = "| id | verdict | source | reason / detail |\n|---|---|---|---|\n";
  for (const auto& c : audit.claims)
    if (c.paper == paper) md += fmt::format("| {} | {} | {} | {} |\n", c.id, c.verdict, md_cell(c.source), md_cell(shorten(c.detail, 160)));
  return md;
}

}  // namespace grainlab::pipeline
