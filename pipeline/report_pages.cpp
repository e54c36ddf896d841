// results/index.html and the per-paper pages (see report.hpp). Pages are written atomically.
#include <fstream>
#include <algorithm>
#include <optional>
#include <set>
#include <sstream>
#include <unistd.h>

#include <fmt/format.h>

#include "core/io/atomic_file.hpp"
#include "pipeline/coverage.hpp"
#include "pipeline/html.hpp"
#include "pipeline/report.hpp"
#include "pipeline/version.hpp"

namespace grainlab::pipeline {
namespace fs = std::filesystem;

namespace {
std::string study_part(const fs::path& results_root, const std::string& study, const std::string& tier) {
  std::ifstream part(results_root / study / tier / "report.html.part");
  if (!part) return fmt::format("<section id=\"{0}\"><h2>{0}</h2><p>not run at tier {1}</p></section>\n", html_escape(study), tier);
  std::stringstream ss;
  ss << part.rdbuf();
  return ss.str();
}

std::string problems_html(const ClaimAudit& audit) {
  if (audit.index_errors.empty() && audit.contradictions.empty()) return "";
  std::string h = "<div class=\"fail\"><p><b>Claim index problems</b> (grainlab report --claims lists them):</p><ul>\n";
  for (const auto& e : audit.index_errors) h += "<li>" + html_escape(e) + "</li>\n";
  for (const auto& e : audit.contradictions) h += "<li>" + html_escape(e) + "</li>\n";
  return h + "</ul></div>\n";
}

std::string nav(const ClaimAudit& audit) {
  std::string h = "<nav><a href=\"index.html\">index</a>";
  for (const auto& p : audit.papers) h += fmt::format("<a href=\"{}\">Paper {}</a>", paper_page_name(p), html_escape(p));
  return h + "</nav>\n";
}

/// A source "study:check …" as links to the study's section on this page.
std::string source_html(const std::string& source) {
  if (source == "recorded reason" || source == "none") return html_escape(source);
  std::string h;
  std::istringstream in(source);
  for (std::string token; in >> token;) {
    const std::string study = token.substr(0, token.find(':'));
    h += fmt::format("{}<a href=\"#{}\"><code>{}</code></a>", h.empty() ? "" : "<br>", html_escape(study), html_escape(token));
  }
  return h;
}

void write_paper_page(const fs::path& results_root, const ClaimAudit& audit, const std::vector<CoverageRow>& rows,
                      const std::string& paper, const std::string& tier) {
  std::string h = page_head("grainlab — Paper " + paper) + nav(audit);
  h += fmt::format("<h1>Paper {} — claims</h1>\n<p>Tier <b>{}</b>; grainlab {} ({}).</p>\n", html_escape(paper), tier,
                   html_escape(version_string()), html_escape(build_type()));
  for (const auto& r : rows)
    if (r.paper == paper) h += md_table_to_html(coverage_markdown({r}));
  h += problems_html(audit);
  h += "<h2>Claims</h2>\n<table class=\"claims\"><tr><th>id</th><th>verdict</th><th>source</th><th>quantity</th><th>reason / detail</th></tr>\n";
  for (const auto& c : audit.claims)
    if (c.paper == paper)
      h += fmt::format("<tr id=\"{0}\"><td>{0}</td><td class=\"{1}\">{2}</td><td>{3}</td><td>{4}</td><td>{5}</td></tr>\n", html_escape(c.id),
                       verdict_class(c.verdict), html_escape(c.verdict), source_html(c.source), md_inline(c.quantity), md_inline(c.detail));
  h += "</table>\n";
  // The studies that judge this paper's claims, each with its checks, errata, figures and provenance.
  std::set<std::string> ids;
  for (const auto& c : audit.claims)
    if (c.paper == paper) ids.insert(c.id);
  std::vector<std::string> studies;
  for (const auto& ci : audit.citations)
    for (const auto& id : ci.claims)
      if (ids.count(id) && std::find(studies.begin(), studies.end(), ci.study) == studies.end()) studies.push_back(ci.study);
  h += "<h2>Studies that judge these claims</h2>\n";
  if (studies.empty()) h += "<p>None yet.</p>\n";
  for (const auto& s : studies) h += study_part(results_root, s, tier);
  io::write_file_atomically(results_root / paper_page_name(paper), h + page_foot());
}
}  // namespace

void write_index(const fs::path& results_root, const std::vector<std::string>& studies, const std::string& tier,
                 const std::string& claims_csv) {
  fs::create_directories(results_root);
  std::optional<ClaimAudit> audit;
  if (fs::exists(claims_csv)) audit = audit_claims(claim_files(claims_csv), results_root, tier);
  std::string html = page_head("grainlab — reproduced studies") + (audit ? nav(*audit) : "") + "<h1>grainlab — reproduced studies</h1>\n";
  html += fmt::format("<p>Tier <b>{}</b>; grainlab {} ({}). Regenerate with <code>make reproduce</code>.</p>\n", tier,
                      html_escape(version_string()), html_escape(build_type()));
  html += "<h2>Claims coverage per paper</h2>\n";
  if (audit) {
    const auto rows = coverage_rows(*audit);
    html += md_table_to_html(coverage_markdown(rows, true));
    html += "<p><b>pass</b> / <b>fail</b>: a check ran (one that ran and disagrees, or cannot be judged as stated, counts as fail); "
            "<b>not reproducible</b>: for the reason recorded in <code>validation/claim_verdicts.csv</code>; <b>not attempted</b>: "
            "nothing has judged it yet. Each paper's page lists every claim with its verdict, source and reason.</p>\n";
    html += problems_html(*audit);
    for (const auto& p : audit->papers) write_paper_page(results_root, *audit, rows, p, tier);
  } else {
    html += fmt::format("<p>No claim index at {}.</p>\n", html_escape(claims_csv));
  }
  html += "<h2>Studies</h2>\n<ul>\n";
  for (const auto& s : studies) html += fmt::format("<li><a href=\"#{0}\">{0}</a></li>\n", html_escape(s));
  html += "</ul>\n";
  for (const auto& s : studies) html += study_part(results_root, s, tier);
  io::write_file_atomically(results_root / "index.html", html + page_foot());
}

}  // namespace grainlab::pipeline
