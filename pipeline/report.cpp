// Report writing (see report.hpp). Single-threaded; writes files under results/.
#include "pipeline/report.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <unistd.h>

#include <fmt/format.h>

#include "pipeline/plot.hpp"
#include "pipeline/version.hpp"

namespace grainlab::pipeline {
namespace fs = std::filesystem;

namespace {
std::string html_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else if (c == '"') o += "&quot;";
    else o += c;
  }
  return o;
}
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}
std::string md_cell(const std::string& s) {
  std::string o;
  for (char c : s) o += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return o;
}
/// Markdown table -> HTML table (our own simple Markdown: header, separator, rows).
std::string md_table_to_html(const std::string& md) {
  std::istringstream in(md);
  std::string line, html = "<table>\n";
  int n = 0;
  while (std::getline(in, line)) {
    if (line.size() < 2 || line[0] != '|') continue;
    if (n == 1) {
      ++n;
      continue;
    }
    std::vector<std::string> cells;
    std::string cell;
    for (size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') cell += '|', ++i;
      else if (line[i] == '|') cells.push_back(cell), cell.clear();
      else cell += line[i];
    }
    html += "<tr>";
    for (auto& c : cells) {
      const std::string cls = c.find("FAIL") != std::string::npos || c == " fail " ? " class=\"fail\"" : c == " pass " ? " class=\"pass\"" : "";
      html += fmt::format("<{0}{1}>{2}</{0}>", n == 0 ? "th" : "td", cls, html_escape(c));
    }
    html += "</tr>\n";
    ++n;
  }
  return html + "</table>\n";
}
}  // namespace

std::string write_study_report(const Study& study, const std::string& tier, const RunOutcome& outcome, Analysis& a,
                               const fs::path& results_root, const std::string& source_root, std::ostream& log) {
  const fs::path dir = study_results_dir(results_root, study, tier);
  fs::create_directories(dir);
  if (a.runs_ok > 0) a.figures = write_plots(study, a, dir, source_root, log);

  // Tables: Markdown + CSV.
  for (const auto& t : study.tables) {
    const auto cols = t.texts("columns");
    const auto where = t.where_filter();
    std::string md = "|", sep = "|", csv;
    for (size_t i = 0; i < cols.size(); ++i) {
      md.append(" ").append(cols[i]).append(" |");
      sep.append("---|");
      if (i) csv.push_back(',');
      csv.append(cols[i]);
    }
    md += "\n" + sep + "\n";
    csv += "\n";
    for (const auto& r : a.rows) {
      if (r.status != "ok" || !r.matches(where)) continue;
      md += "|";
      for (size_t i = 0; i < cols.size(); ++i) {
        std::string v;
        if (auto it = r.num.find(cols[i]); it != r.num.end()) v = fmt::format("{:.4g}", it->second);
        else if (auto jt = r.text.find(cols[i]); jt != r.text.end()) v = jt->second;
        else if (auto kt = a.scalars.find(cols[i]); kt != a.scalars.end()) v = fmt::format("{:.4g}", kt->second);
        md.append(" ").append(md_cell(v)).append(" |");
        if (i) csv.push_back(',');
        csv.append(csv_field(v));
      }
      md += "\n";
      csv += "\n";
    }
    std::ofstream(dir / (t.name + ".md")) << md;
    std::ofstream(dir / (t.name + ".csv")) << csv;
    a.tables_md.emplace_back(t.text("title", t.name), md);
  }
  for (const auto& v : a.verdicts)
    if (!v.table_md.empty()) {
      std::ofstream(dir / ("check_" + v.id + ".md")) << v.table_md;
      a.tables_md.emplace_back("Check " + v.id + ": ours beside the paper", v.table_md);
    }

  // Verdicts and errata as CSV (read back by the coverage table).
  {
    std::ofstream vc(dir / "verdicts.csv");
    vc << "id,claim,paper,source,seed,lines,verdict,detail\n";
    for (const auto& v : a.verdicts)
      vc << fmt::format("{},{},{},{},{},{},{},{}\n", csv_field(v.id), csv_field(v.claim), csv_field(v.paper), csv_field(v.source),
                        csv_field(v.seed), csv_field(v.lines), csv_field(v.verdict), csv_field(v.detail));
    std::ofstream ec(dir / "errata.csv");
    ec << "where,quantity,printed,recomputed,ours,note\n";
    for (const auto& e : a.errata)
      ec << fmt::format("{},{},{},{},{},{}\n", csv_field(e.where), csv_field(e.quantity), csv_field(e.printed), csv_field(e.recomputed),
                        csv_field(e.ours), csv_field(e.note));
  }

  int pass = 0, fail = 0, nr = 0;
  for (const auto& v : a.verdicts) (v.verdict == "pass" ? pass : v.verdict == "fail" ? fail : nr)++;
  const std::string summary = fmt::format("{} [{}]: runs {} ok, {} failed, {} missing; checks {} pass, {} fail, {} not reproduced", study.name,
                                          tier, a.runs_ok, a.runs_failed, a.runs_missing, pass, fail, nr);

  // report.md
  std::string md = fmt::format("# {} — {}\n\n", study.name, study.title);
  if (!study.description.empty()) md += study.description + "\n\n";
  md += fmt::format("- study file: `{}`\n- experiment: `{}`{}\n- tier: {}\n- {}\n- generated by grainlab {} ({})\n\n", study.file,
                    study.experiment, study.experiment_available ? "" : " (**not available in this build**)", tier, summary,
                    version_string(), build_type());
  double wall = 0;
  std::set<std::string> hosts;
  for (const auto& r : outcome.runs) wall += r.provenance.wall_s, hosts.insert(r.provenance.host);
  if (a.runs_ok) md += fmt::format("Total run wall time {:.3g} s on {}.\n\n", wall, fmt::format("{}", fmt::join(hosts, ", ")));
  if (a.runs_failed) {
    md += "## Failed runs\n\n";
    for (const auto& r : a.rows)
      if (r.status == "failed") md += fmt::format("- `{}`: {}\n", r.key, r.message);
    md += "\n";
  }
  md += "## Checks\n\n| id | claim | paper | source | seed lines | verdict | detail |\n|---|---|---|---|---|---|---|\n";
  for (const auto& v : a.verdicts)
    md += fmt::format("| {} | {} | {} | {} | {} {} | {} | {} |\n", v.id, v.claim, v.paper, md_cell(v.source), v.seed, v.lines,
                      v.verdict, md_cell(v.detail));
  if (!a.scalars.empty()) {
    md += "\n## Derived quantities\n\n| name | value |\n|---|---|\n";
    for (const auto& [k, v] : a.scalars) md += fmt::format("| {} | {:.6g} |\n", k, v);
  }
  if (!a.errata.empty()) {
    md += "\n## Errata (printed vs recomputed)\n\n| where | quantity | printed | recomputed | ours | note |\n|---|---|---|---|---|---|\n";
    for (const auto& e : a.errata)
      md += fmt::format("| {} | {} | {} | {} | {} | {} |\n", md_cell(e.where), e.quantity, e.printed, e.recomputed, e.ours, md_cell(e.note));
  }
  if (!a.figures.empty()) {
    md += "\n## Figures\n\n";
    for (const auto& f : a.figures) md += fmt::format("![{0}]({0})\n\n", f);
  }
  for (const auto& [title, t] : a.tables_md) md += fmt::format("\n## {}\n\n{}", title, t);
  std::ofstream(dir / "report.md") << md;

  // The study's section of index.html.
  std::string html = fmt::format("<section id=\"{0}\"><h2>{0} — {1}</h2>\n<p>{2}</p>\n<p class=\"summary\">{3}</p>\n", html_escape(study.name),
                                 html_escape(study.title), html_escape(study.description), html_escape(summary));
  html += "<h3>Checks</h3>\n<table><tr><th>id</th><th>claim</th><th>paper</th><th>source</th><th>seed lines</th><th>verdict</th><th>detail</th></tr>\n";
  for (const auto& v : a.verdicts)
    html += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} {}</td><td class=\"{}\">{}</td><td>{}</td></tr>\n",
                        html_escape(v.id), html_escape(v.claim), html_escape(v.paper), html_escape(v.source), html_escape(v.seed),
                        html_escape(v.lines), v.verdict == "pass" ? "pass" : v.verdict == "fail" ? "fail" : "nr", html_escape(v.verdict),
                        html_escape(v.detail));
  html += "</table>\n";
  if (!a.errata.empty()) {
    html += "<h3>Errata</h3>\n<table><tr><th>where</th><th>quantity</th><th>printed</th><th>recomputed</th><th>ours</th><th>note</th></tr>\n";
    for (const auto& e : a.errata)
      html += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", html_escape(e.where),
                          html_escape(e.quantity), html_escape(e.printed), html_escape(e.recomputed), html_escape(e.ours), html_escape(e.note));
    html += "</table>\n";
  }
  for (const auto& f : a.figures)
    if (fs::exists(dir / f)) html += fmt::format("<figure><img src=\"{0}/{1}/{2}\" alt=\"{2}\"></figure>\n", html_escape(study.name), tier, html_escape(f));
  for (const auto& [title, t] : a.tables_md)
    html += fmt::format("<details><summary>{}</summary>\n{}</details>\n", html_escape(title), md_table_to_html(t));
  html += fmt::format("<p><a href=\"{0}/{1}/report.md\">report.md</a></p></section>\n", html_escape(study.name), tier);
  std::ofstream(dir / "report.html.part") << html;
  return summary;
}

std::vector<CoverageRow> coverage(const std::string& claims_csv, const fs::path& results_root, const std::string& tier) {
  std::map<std::string, CoverageRow> by_paper;
  std::map<std::string, std::string> paper_of, reproducible;
  if (fs::exists(claims_csv))
    for (const auto& c : read_csv(claims_csv)) {
      const std::string id = c.count("id") ? c.at("id") : "", paper = c.count("paper") ? c.at("paper") : "?";
      if (id.empty()) continue;
      paper_of[id] = paper;
      reproducible[id] = c.count("reproducible") ? c.at("reproducible") : "";
      by_paper[paper].paper = paper;
      by_paper[paper].in_ledger++;
    }
  // Worst verdict per claim over all checks citing it: fail > pass > not reproduced.
  std::map<std::string, std::string> verdict;
  if (fs::exists(results_root))
    for (const auto& study : fs::directory_iterator(results_root)) {
      const fs::path vf = study.path() / tier / "verdicts.csv";
      if (!fs::exists(vf)) continue;
      for (const auto& v : read_csv(vf.string())) {
        std::stringstream ids(v.at("claim"));
        std::string id;
        while (std::getline(ids, id, ' ')) {
          if (id.empty()) continue;
          if (!id.empty() && id.back() == ',') id.pop_back();
          auto& cur = verdict[id];
          const std::string& nv = v.at("verdict");
          if (cur.empty() || nv == "fail" || (nv == "pass" && cur == "not reproduced")) cur = nv;
        }
      }
    }
  for (const auto& [id, paper] : paper_of) {
    auto& row = by_paper[paper];
    auto it = verdict.find(id);
    if (it != verdict.end() && it->second == "pass") row.judged++, row.passed++;
    else if (it != verdict.end() && it->second == "fail") row.judged++, row.failed++;
    else if (it != verdict.end() || reproducible[id].rfind("yes", 0) != 0) row.not_reproduced++;
  }
  std::vector<CoverageRow> out;
  for (const auto& [p, r] : by_paper) out.push_back(r);
  return out;
}

std::string coverage_markdown(const std::vector<CoverageRow>& rows) {
  std::string md = "| paper | claims in ledger | judged | passed | failed | not reproduced | not yet judged |\n|---|---|---|---|---|---|---|\n";
  CoverageRow total{"total"};
  for (const auto& r : rows) {
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", r.paper, r.in_ledger, r.judged, r.passed, r.failed, r.not_reproduced,
                      r.in_ledger - r.judged - r.not_reproduced);
    total.in_ledger += r.in_ledger, total.judged += r.judged, total.passed += r.passed, total.failed += r.failed,
        total.not_reproduced += r.not_reproduced;
  }
  md += fmt::format("| **total** | {} | {} | {} | {} | {} | {} |\n", total.in_ledger, total.judged, total.passed, total.failed,
                    total.not_reproduced, total.in_ledger - total.judged - total.not_reproduced);
  return md;
}

void write_index(const fs::path& results_root, const std::vector<std::string>& studies, const std::string& tier,
                 const std::string& claims_csv) {
  fs::create_directories(results_root);
  std::string html = R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>grainlab — reproduced studies</title>
<style>
body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:0.5em 0;font-size:0.9em}td,th{border:1px solid #bbb;padding:3px 6px;text-align:left}
th{background:#eee}.pass{background:#c8f0c8}.fail{background:#f5b5b5}.nr{background:#f0e6b0}
img{max-width:100%;border:1px solid #ddd}section{border-top:2px solid #444;margin-top:2em}.summary{font-weight:bold}
</style></head><body>
<h1>grainlab — reproduced studies</h1>
)";
  html += fmt::format("<p>Tier <b>{}</b>; grainlab {} ({}). Regenerate with <code>make reproduce</code>.</p>\n", tier,
                      html_escape(version_string()), html_escape(build_type()));
  html += "<h2>Claims coverage per paper</h2>\n";
  if (fs::exists(claims_csv)) html += md_table_to_html(coverage_markdown(coverage(claims_csv, results_root, tier)));
  else html += fmt::format("<p>No claim index at {}.</p>\n", html_escape(claims_csv));
  html += "<h2>Studies</h2>\n<ul>\n";
  for (const auto& s : studies) html += fmt::format("<li><a href=\"#{0}\">{0}</a></li>\n", html_escape(s));
  html += "</ul>\n";
  for (const auto& s : studies) {
    std::ifstream part(results_root / s / tier / "report.html.part");
    if (!part) {
      html += fmt::format("<section id=\"{0}\"><h2>{0}</h2><p>not run at tier {1}</p></section>\n", html_escape(s), tier);
      continue;
    }
    std::stringstream ss;
    ss << part.rdbuf();
    html += ss.str();
  }
  html += "</body></html>\n";
  const fs::path tmp = results_root / fmt::format(".index.html.tmp-{}", ::getpid());
  std::ofstream(tmp) << html;
  fs::rename(tmp, results_root / "index.html");
}

}  // namespace grainlab::pipeline
