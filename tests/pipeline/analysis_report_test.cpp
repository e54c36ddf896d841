// Derived quantities, checks with verdicts (pass and fail), errata, figures, tables, reports, coverage.
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <sstream>

#include "pipeline/analysis.hpp"
#include "pipeline/coverage.hpp"
#include "pipeline/plot.hpp"
#include "pipeline/report.hpp"
#include "tests/pipeline/report_test_helpers.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab::pipeline;
namespace fs = std::filesystem;
namespace tt = boost::test_tools;

namespace {
using test::slurp;
using test::verdict;
}  // namespace

BOOST_AUTO_TEST_SUITE(analysis_and_report)

BOOST_AUTO_TEST_CASE(derived_checks_and_reports) {
  auto dir = toy::temp_dir("analysis");
  fs::create_directories(dir / "validation");
  toy::write(dir / "validation" / "ref.csv",
             "row,column,printed,value,tolerance,status,recomputed,seed,lines,note\n"
             "1,y,2,2,0.5,ok,,000,10,\n"
             "2,y,5.7,5.7,0.05,ok,,000,11,\n"
             "4,y,9,9,0.5,erratum,16,000,13,\"printed 9, recomputed 16\"\n"
             "3,y,11,11,0.5,ok,,000,12,\n");  // row 3: ours 10.39 -> this cell fails
  toy::write(dir / "validation" / "points.csv", "x,y\n1,2\n4,16\n");
  const auto file = toy::write(dir / "studies" / "toy.toml", R"([study]
name = "toy"
title = "toy study"
experiment = "toy_power"
metrics = ["y", "y_ref"]
[sweep.zip]
x = [1.0, 2.0, 3.0, 4.0]
seed = [1, 2, 3, 4]
[[derived]]
name = "rel"
kind = "ratio"
numerator = "y"
denominator = "y_ref"
[[derived]]
name = "vbar"
kind = "time_average"
series = "trace"
column = "v"
[[derived]]
name = "trace_l1"
kind = "series_distance"
series = "trace"
column = "v"
where = { x = 2.0 }
[[derived]]
name = "y_at_2"
kind = "value_at"
y = "y_ref"
where = { x = 2.0 }
[[derived]]
name = "first_x_above_5"
kind = "min_reaching"
x = "x"
y = "y_ref"
threshold = 5.0
direction = "above"
[[derived]]
name = "law"
kind = "fit"
model = "power"
x = "x"
y = "y_ref"
[[check]]
id = "exponent"
kind = "within"
claim = "T-C01"
paper = "I"
source = "Eq. 1"
seed = "000"
lines = "1-2"
quantity = "law.b"
value = 1.5
tolerance = 1e-6
[[check]]
id = "wrong-value"
kind = "within"
quantity = "y_at_2"
value = 3.0
rel_tolerance = 0.01
[[check]]
id = "increasing"
kind = "monotone"
x = "x"
y = "y"
strict = true
[[check]]
id = "slope"
kind = "scaling"
x = "x"
y = "y_ref"
min = 1.45
max = 1.55
[[check]]
id = "slope-wrong"
kind = "scaling"
x = "x"
y = "y_ref"
min = 0.9
max = 1.1
[[check]]
id = "saturates"
kind = "saturating"
x = "x"
y = "y_ref"
[[check]]
id = "table"
kind = "reference_table"
claim = "T-C01"
source = "Table 9"
file = "validation/ref.csv"
key = "x"
columns = ["y_ref"]
[[check]]
id = "later"
kind = "not_reproduced"
claim = "P2-C01"
reason = "needs the NDEM engine"
[[table]]
name = "values"
columns = ["x", "y", "rel", "vbar"]
[[plot]]
name = "law"
x = "x"
logx = true
logy = true
series = [{ y = "y", label = "ours" }, { y = "y_ref", style = "lines" }]
reference = { file = "validation/points.csv", x = "x", y = "y", label = "paper" }
)");
  // The reference table keys on `x` (1..4) and compares y_ref: rename the columns of the fixture.
  {
    std::string ref = slurp(dir / "validation" / "ref.csv");
    for (size_t p; (p = ref.find(",y,")) != std::string::npos;) ref.replace(p, 3, ",y_ref,");
    ref.erase(0, 3);
    ref.insert(ref.begin(), 'x');
    toy::write(dir / "validation" / "ref.csv", ref);
  }
  const Study s = load_study(file, dir.string());
  std::ostringstream log;
  const RunOutcome o = run_study(s, "quick", dir / "results", toy::options(2, false, false), log);
  Analysis a = analyse(s, o, dir.string());

  BOOST_TEST(a.runs_ok == 4);
  BOOST_TEST(a.scalars.at("y_at_2") == 2 * std::pow(2.0, 1.5), tt::tolerance(1e-12));
  BOOST_TEST(a.scalars.at("first_x_above_5") == 2.0);  // y_ref = 2 x^1.5: 2 at x = 1, 5.66 at x = 2
  BOOST_TEST(a.scalars.at("law.a") == 2.0, tt::tolerance(1e-6));
  BOOST_TEST(a.scalars.at("law.b") == 1.5, tt::tolerance(1e-6));
  for (const auto& r : a.rows) {
    BOOST_TEST(r.num.at("vbar") == r.num.at("x") / 2, tt::tolerance(1e-12));  // v = x t averaged over [0, 1]
    // sum over t = 0, 0.1, ..., 1 of |x t - 2 t| = 5.5 |x - 2|: the L1 distance to the x = 2 run's trace
    BOOST_TEST(r.num.at("trace_l1") == 5.5 * std::abs(r.num.at("x") - 2), tt::tolerance(1e-12));
    BOOST_TEST(r.num.at("rel") == 1 + 1e-3 * (r.num.at("seed") - 1), tt::tolerance(1e-12));
  }
  BOOST_TEST(verdict(a, "exponent").verdict == "pass");
  BOOST_TEST(verdict(a, "wrong-value").verdict == "fail");
  BOOST_TEST(verdict(a, "increasing").verdict == "pass");
  BOOST_TEST(verdict(a, "slope").verdict == "pass");
  BOOST_TEST(verdict(a, "slope-wrong").verdict == "fail");
  BOOST_TEST(verdict(a, "saturates").verdict == "fail");  // x^1.5 grows faster and faster
  BOOST_TEST(verdict(a, "table").verdict == "fail", verdict(a, "table").table_md);  // the row-3 cell is off
  BOOST_TEST(verdict(a, "table").detail.find("3 of 4 cells") != std::string::npos, verdict(a, "table").detail);
  BOOST_TEST(verdict(a, "later").verdict == "not reproduced");
  BOOST_TEST_REQUIRE(a.errata.size() == 1u);
  BOOST_TEST(a.errata[0].printed == "9");
  BOOST_TEST(a.errata[0].recomputed == "16");
  BOOST_TEST(!a.passed());

  const auto summary = write_study_report(s, "quick", o, a, dir / "results", dir.string(), log);
  const fs::path out = dir / "results" / "toy" / "quick";
  BOOST_TEST(summary.find("checks 3 pass, 4 fail, 1 not reproduced") != std::string::npos, summary);
  const std::string md = slurp(out / "report.md");
  BOOST_TEST(md.find("| wrong-value |") != std::string::npos);
  BOOST_TEST(md.find("## Errata") != std::string::npos);
  BOOST_TEST(fs::exists(out / "values.csv"));
  BOOST_TEST(fs::exists(out / "values.md"));
  BOOST_TEST(fs::exists(out / "law.gp"));
  BOOST_TEST(fs::exists(out / "law.dat"));
  if (gnuplot_available()) {
    BOOST_TEST(fs::exists(out / "law.png"));
    BOOST_TEST(fs::exists(out / "law.svg"));
  }

  // Claims: the fixture index beside the toy study, with its verdict-source file derived from the study.
  fs::copy_file(std::string(GRAINLAB_TEST_DATA_DIR) + "/pipeline/fixtures_claims.csv", dir / "validation" / "claims.csv");
  const auto files = claim_files(dir / "validation" / "claims.csv");
  std::ofstream(files.sources_csv) << sources_csv_text(derive_sources(read_claims(files.claims_csv), scan_citations(files.studies_dir), {}));
  write_index(dir / "results", {"toy", "absent"}, "quick", files.claims_csv.string());
  const std::string html = slurp(dir / "results" / "index.html");
  BOOST_TEST(html.find("<section id=\"toy\">") != std::string::npos);
  BOOST_TEST(html.find("not run at tier quick") != std::string::npos);
  BOOST_TEST(html.find("Claims coverage") != std::string::npos);
  BOOST_TEST(html.find("<strong>total</strong>") != std::string::npos);
  BOOST_TEST(html.find("**") == std::string::npos);
  BOOST_TEST(html.find("<a href=\"paper_I.html\">") != std::string::npos);
  const std::string page = slurp(dir / "results" / "paper_I.html");
  BOOST_TEST(page.find("<tr id=\"T-C02\">") != std::string::npos);
  BOOST_TEST(page.find("needs geometry, missing") != std::string::npos);  // the recorded reason
  BOOST_TEST(page.find("<section id=\"toy\">") != std::string::npos);     // the study that judges T-C01
  BOOST_TEST(page.find("Run provenance") != std::string::npos);
  BOOST_TEST(fs::exists(dir / "results" / "paper_II.html"));

  const auto audit = audit_claims(files, dir / "results", "quick");
  BOOST_TEST(audit.index_errors.empty());
  const auto cov = coverage_rows(audit);
  BOOST_TEST_REQUIRE(cov.size() == 3u);  // I, II, total
  BOOST_TEST(cov[0].paper == "I");
  BOOST_TEST(cov[0].claims == 4);
  BOOST_TEST(cov[0].fail == 1);              // T-C01: exponent passes, table fails: the worst wins
  BOOST_TEST(cov[0].not_reproducible == 1);  // T-C02: "no: ..."
  BOOST_TEST(cov[0].not_attempted == 2);     // P1-C27, P1-C30: no check cites them here
  BOOST_TEST(cov[1].paper == "II");
  BOOST_TEST(cov[1].fail == 1);  // P2-C01: a not_reproduced check ran and records a disagreement
  BOOST_TEST(cov[2].paper == "total");
  BOOST_TEST(cov[2].claims == 5);
  // T-C01 gets pass and fail from two checks with no contradicts_ok reason: the audit says so.
  BOOST_TEST_REQUIRE(audit.contradictions.size() == 1u);
  BOOST_TEST(audit.contradictions[0].find("T-C01") != std::string::npos, audit.contradictions[0]);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
