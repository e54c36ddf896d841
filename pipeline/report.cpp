// Report writing (see report.hpp). Single-threaded; writes files under results/.
#include "pipeline/report.hpp"

#include <algorithm>

#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <tuple>

#include <fmt/format.h>

#include "core/io/atomic_file.hpp"
#include "pipeline/html.hpp"
#include "pipeline/plot.hpp"
#include "pipeline/version.hpp"

namespace grainlab::pipeline {
namespace fs = std::filesystem;

namespace {
/// provenance.csv (one row per stored run) and a Markdown summary grouped by what produced the runs:
/// version, build type, threads and host, with the run count, total wall time and start times.
std::string write_provenance(const RunOutcome& outcome, const fs::path& dir) {
  std::ostringstream csv;
  csv << "key,status,experiment,version,dirty,build_type,threads,host,started_utc,wall_s\n";
  struct Group {
    int runs = 0;
    double wall = 0;
    std::string first, last;
  };
  std::map<std::tuple<std::string, std::string, int, std::string>, Group> groups;
  for (const auto& r : outcome.runs) {
    if (r.status == "missing") continue;
    const auto& p = r.provenance;
    csv << fmt::format("{},{},{},{},{},{},{},{},{},{:.6g}\n", r.key, r.status, csv_field(p.experiment), csv_field(p.version), p.dirty,
                       csv_field(p.build_type), p.threads, csv_field(p.host), p.started_utc, p.wall_s);
    const bool marked = p.version.size() >= 6 && p.version.compare(p.version.size() - 6, 6, "-dirty") == 0;
    auto& g = groups[{p.version + (p.dirty && !marked ? " (dirty)" : ""), p.build_type, p.threads, p.host}];
    g.runs++, g.wall += p.wall_s;
    if (g.first.empty() || p.started_utc < g.first) g.first = p.started_utc;
    if (p.started_utc > g.last) g.last = p.started_utc;
  }
  if (groups.empty()) return "";
  std::string md = "| runs | version | build | threads | host | wall time (sum) | started (UTC) |\n|---|---|---|---|---|---|---|\n";
  for (const auto& [k, g] : groups)
    md += fmt::format("| {} | {} | {} | {} | {} | {:.3g} s | {}{} |\n", g.runs, md_cell(std::get<0>(k)), md_cell(std::get<1>(k)),
                      std::get<2>(k), md_cell(std::get<3>(k)), g.wall, g.first, g.last == g.first ? "" : " … " + g.last);
  io::write_file_atomically(dir / "provenance.csv", csv.str());
  return md;
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
    // A table of scalars only (fit coefficients) has one row, not one per run.
    const bool scalars_only = std::all_of(cols.begin(), cols.end(), [&](const std::string& c) { return a.scalars.count(c) > 0; });
    bool written = false;
    for (const auto& r : a.rows) {
      if (r.status != "ok" || !r.matches(where) || (scalars_only && written)) continue;
      written = true;
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
    io::write_file_atomically(dir / (t.name + ".md"), md);
    io::write_file_atomically(dir / (t.name + ".csv"), csv);
    a.tables_md.emplace_back(t.text("title", t.name), md);
  }
  for (const auto& v : a.verdicts)
    if (!v.table_md.empty()) {
      io::write_file_atomically(dir / ("check_" + v.id + ".md"), v.table_md);
      a.tables_md.emplace_back("Check " + v.id + ": ours beside the paper", v.table_md);
    }

  // Verdicts and errata as CSV (read back by the coverage table).
  {
    std::ostringstream vc, ec;
    vc << "id,claim,paper,source,seed,lines,verdict,detail\n";
    for (const auto& v : a.verdicts)
      vc << fmt::format("{},{},{},{},{},{},{},{}\n", csv_field(v.id), csv_field(v.claim), csv_field(v.paper), csv_field(v.source),
                        csv_field(v.seed), csv_field(v.lines), csv_field(v.verdict), csv_field(v.detail));
    ec << "where,quantity,printed,recomputed,ours,note\n";
    for (const auto& e : a.errata)
      ec << fmt::format("{},{},{},{},{},{}\n", csv_field(e.where), csv_field(e.quantity), csv_field(e.printed), csv_field(e.recomputed),
                        csv_field(e.ours), csv_field(e.note));
    io::write_file_atomically(dir / "verdicts.csv", vc.str());
    io::write_file_atomically(dir / "errata.csv", ec.str());
  }

  int pass = 0, fail = 0, nr = 0, not_run = 0;
  for (const auto& v : a.verdicts) (v.verdict == "pass" ? pass : v.verdict == "fail" ? fail : v.verdict == "not run" ? not_run : nr)++;
  std::string summary = fmt::format("{} [{}]: runs {} ok, {} failed, {} missing; checks {} pass, {} fail, {} not reproduced", study.name,
                                    tier, a.runs_ok, a.runs_failed, a.runs_missing, pass, fail, nr);
  if (not_run) summary += fmt::format(", {} not run", not_run);
  io::write_file_atomically(dir / "summary.txt", summary + "\n");  // the line the render test looks for on the page
  const std::string provenance = write_provenance(outcome, dir);

  // report.md
  std::string md = fmt::format("# {} — {}\n\n", study.name, study.title);
  if (!study.description.empty()) md += study.description + "\n\n";
  std::string imports;
  for (const auto& imp : study.imported) imports += fmt::format("{}`{}`", imports.empty() ? "" : ", ", imp.name);
  const std::string source = study.runs_own() ? fmt::format("experiment: `{}`{}", study.experiment,
                                                            study.experiment_available ? "" : " (**not available in this build**)")
                                              : "experiment: none (runs of the imported studies)";
  md += fmt::format("- study file: `{}`\n- {}{}\n- tier: {}\n- {}\n- generated by grainlab {} ({})\n\n", study.file, source,
                    imports.empty() ? "" : "\n- imports (their runs of this tier): " + imports, tier, summary, version_string(), build_type());
  if (!provenance.empty()) md += "## Run provenance\n\n" + provenance + "\n";
  // Run guard warnings (core/run_warnings.hpp, docs/guards.md): the same text from several runs once.
  std::map<std::string, std::vector<std::string>> warnings;
  for (const auto& r : outcome.runs)
    for (const auto& w : r.provenance.warnings) warnings[w].push_back(r.key);
  std::string warnings_md;
  for (const auto& [w, keys] : warnings)
    warnings_md += fmt::format("- {} (run{} `{}`{})\n", w, keys.size() > 1 ? "s" : "", keys[0],
                               keys.size() > 1 ? fmt::format(" and {} more", keys.size() - 1) : "");
  if (!warnings.empty()) {
    md += "## Run warnings\n\n" + warnings_md + "\n";
    log << fmt::format("{} [{}]: {} run warning{} (report.md, \"Run warnings\"):\n{}", study.name, tier, warnings.size(),
                       warnings.size() > 1 ? "s" : "", warnings_md);
  }
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
  io::write_file_atomically(dir / "report.md", md);

  // The study's section of index.html.
  std::string html = fmt::format("<section id=\"{0}\"><h2>{0} — {1}</h2>\n<p>{2}</p>\n<p class=\"summary\">{3}</p>\n", html_escape(study.name),
                                 html_escape(study.title), md_inline(study.description), html_escape(summary));
  html += "<h3>Checks</h3>\n<table><tr><th>id</th><th>claim</th><th>paper</th><th>source</th><th>seed lines</th><th>verdict</th><th>detail</th></tr>\n";
  for (const auto& v : a.verdicts)
    html += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} {}</td><td class=\"{}\">{}</td><td>{}</td></tr>\n",
                        html_escape(v.id), html_escape(v.claim), html_escape(v.paper), html_escape(v.source), html_escape(v.seed),
                        html_escape(v.lines), verdict_class(v.verdict), html_escape(v.verdict), md_inline(v.detail));
  html += "</table>\n";
  if (!a.errata.empty()) {
    html += "<h3>Errata</h3>\n<table><tr><th>where</th><th>quantity</th><th>printed</th><th>recomputed</th><th>ours</th><th>note</th></tr>\n";
    for (const auto& e : a.errata)
      html += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", html_escape(e.where),
                          html_escape(e.quantity), html_escape(e.printed), html_escape(e.recomputed), html_escape(e.ours), html_escape(e.note));
    html += "</table>\n";
  }
  if (!warnings.empty()) {
    html += "<h3>Run warnings</h3>\n<ul>\n";
    for (const auto& [w, keys] : warnings) html += fmt::format("<li>{} ({} run{})</li>\n", html_escape(w), keys.size(), keys.size() > 1 ? "s" : "");
    html += "</ul>\n";
  }
  if (!provenance.empty()) html += "<h3>Run provenance</h3>\n" + md_table_to_html(provenance);
  for (const auto& f : a.figures)
    if (fs::exists(dir / f)) html += fmt::format("<figure><img src=\"{0}/{1}/{2}\" alt=\"{2}\"></figure>\n", html_escape(study.name), tier, html_escape(f));
  for (const auto& [title, t] : a.tables_md)
    html += fmt::format("<details><summary>{}</summary>\n{}</details>\n", html_escape(title), md_table_to_html(t));
  html += fmt::format("<p><a href=\"{0}/{1}/report.md\">report.md</a></p></section>\n", html_escape(study.name), tier);
  io::write_file_atomically(dir / "report.html.part", html);
  return summary;
}

}  // namespace grainlab::pipeline
