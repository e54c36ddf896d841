// Check machinery added after issue 7: row filters (`where = { key = [values] }`), the `bounds` check,
// two-point `monotone` checks (min_points), errata named from reference files other than a
// reference_table, and the absolute deviation printed against a zero reference column.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "pipeline/analysis.hpp"
#include "pipeline/report.hpp"
#include "tests/pipeline/report_test_helpers.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab::pipeline;
namespace fs = std::filesystem;

namespace {
using test::slurp;
using test::verdict;
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A reference file in the validation/ format: a comment block (with quotes and commas that must not
// reach the CSV parser), then quantity, ..., printed, recomputed, claim_id.
const char* kReference =
    "# Toy reference values. A \"quoted, comma\" comment line\n"
    "# second comment line, with a comma\n"
    "quantity,condition,value,uncertainty,unit,source,lines,printed,recomputed,claim_id\n"
    "onset angle,\"incline, mu_r = 0.32\",17.745,0.17,deg,000_seed.txt,1247,17.84 deg,atan(0.32) = 17.745 deg,T-C07\n"
    "plain value,none,1,,1,000_seed.txt,12,1,,T-C08\n";

// y_ref = 2 x^1.5: 2, 5.657, 10.39, 16 at x = 1 ... 4 (toy_experiment.hpp).
const char* kStudy = R"([study]
name = "toy_filters"
experiment = "toy_power"
metrics = ["y", "y_ref"]
[sweep.zip]
x = [1.0, 2.0, 3.0, 4.0]
[[check]]
id = "bounds-pass"
kind = "bounds"
quantity = "y_ref"
where = { x = [2.0, 3.0] }
count = 2
min = 5.0
max = 11.0
[[check]]
id = "bounds-fail"
kind = "bounds"
quantity = "y_ref"
where = { x = [2.0, 3.0] }
max = 10.0
[[check]]
id = "bounds-missing-run"
kind = "bounds"
quantity = "y_ref"
where = { x = [2.0, 3.0, 7.0] }
count = 3
min = 0.0
[[check]]
id = "bounds-no-run"
kind = "bounds"
quantity = "y_ref"
where = { x = [7.0] }
min = 0.0
[[check]]
id = "pair-increasing"
kind = "monotone"
x = "x"
y = "y_ref"
where = { x = [1.0, 4.0] }
strict = true
min_points = 2
[[check]]
id = "pair-decreasing"
kind = "monotone"
x = "x"
y = "y_ref"
where = { x = [1.0, 4.0] }
direction = "decreasing"
min_points = 2
[[check]]
id = "pair-default-needs-three"
kind = "monotone"
x = "x"
y = "y_ref"
where = { x = [1.0, 4.0] }
[[check]]
id = "onset"
kind = "within"
source = "Toy Table 2"
quantity = "y_ref"
where = { x = 1.0 }
value = 2.0
tolerance = 1e-9
reference_file = "validation/toy_values.csv"
errata = ["onset angle"]
[[check]]
id = "zero-column"
kind = "columns_within"
a = "a"
b = "x"
where = { x = [1.0] }
tolerance = 10.0
[[table]]
name = "filtered"
columns = ["x", "y_ref"]
where = { x = [1.0, 3.0] }
)";
}  // namespace

BOOST_AUTO_TEST_SUITE(row_filters_and_errata)

BOOST_AUTO_TEST_CASE(row_filter_bounds_pairs_errata) {
  const auto dir = toy::temp_dir("filters");
  fs::create_directories(dir / "validation");
  toy::write(dir / "validation" / "toy_values.csv", kReference);
  const auto file = toy::write(dir / "studies" / "toy_filters.toml", kStudy);
  const Study s = load_study(file, dir.string());
  std::ostringstream log;
  const RunOutcome o = run_study(s, "quick", dir / "results", toy::options(1, false, false), log);
  Analysis a = analyse(s, o, dir.string());
  BOOST_TEST(a.runs_ok == 4);

  BOOST_TEST(verdict(a, "bounds-pass").verdict == "pass", verdict(a, "bounds-pass").detail);
  BOOST_TEST(contains(verdict(a, "bounds-pass").detail, "2 of 2 runs"), verdict(a, "bounds-pass").detail);
  BOOST_TEST(verdict(a, "bounds-fail").verdict == "fail");  // x = 3: 10.39 > 10
  BOOST_TEST(contains(verdict(a, "bounds-fail").detail, "1 of 2 runs"), verdict(a, "bounds-fail").detail);
  BOOST_TEST(verdict(a, "bounds-missing-run").verdict == "fail");  // x = 7 was never run: 2 selected, 3 expected
  BOOST_TEST(contains(verdict(a, "bounds-missing-run").detail, "expected 3"), verdict(a, "bounds-missing-run").detail);
  BOOST_TEST(verdict(a, "bounds-no-run").verdict == "not reproduced");

  BOOST_TEST(verdict(a, "pair-increasing").verdict == "pass", verdict(a, "pair-increasing").detail);
  BOOST_TEST(contains(verdict(a, "pair-increasing").detail, "over 2 points"));  // the filter kept x = 1 and 4 only
  BOOST_TEST(verdict(a, "pair-decreasing").verdict == "fail");
  BOOST_TEST(verdict(a, "pair-default-needs-three").verdict == "not reproduced");

  // The erratum of the reference file reaches the analysis with printed and recomputed values.
  BOOST_TEST(verdict(a, "onset").verdict == "pass");
  BOOST_TEST_REQUIRE(a.errata.size() == 1u);
  BOOST_TEST(a.errata[0].quantity == "onset angle");
  BOOST_TEST(a.errata[0].printed == "17.84 deg");
  BOOST_TEST(a.errata[0].recomputed == "atan(0.32) = 17.745 deg");
  BOOST_TEST(contains(a.errata[0].where, "Toy Table 2"));
  BOOST_TEST(contains(a.errata[0].where, "1247"));
  BOOST_TEST(contains(a.errata[0].ours, "y_ref = 2 (check onset)"), a.errata[0].ours);
  BOOST_TEST(contains(a.errata[0].note, "T-C07"));

  // Reference column b = x = 1 here: an ordinary relative deviation (the zero case is the next test).
  BOOST_TEST(contains(verdict(a, "zero-column").detail, "largest relative deviation 1"), verdict(a, "zero-column").detail);

  write_study_report(s, "quick", o, a, dir / "results", dir.string(), log);
  const fs::path out = dir / "results" / "toy_filters" / "quick";
  const std::string md = slurp(out / "report.md");
  BOOST_TEST(contains(md, "## Errata"));
  BOOST_TEST(contains(md, "onset angle"));
  BOOST_TEST(contains(md, "17.84 deg"));
  // The table's row filter keeps x = 1 and 3.
  const std::string csv = slurp(out / "filtered.csv");
  BOOST_TEST(std::count(csv.begin(), csv.end(), '\n') == 3, csv);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(zero_reference_column_prints_absolute_deviation) {
  const auto dir = toy::temp_dir("zero_column");
  const auto file = toy::write(dir / "studies" / "zero.toml", R"([study]
name = "zero"
experiment = "toy_power"
metrics = ["y", "y_ref"]
[sweep.zip]
x = [0.0, 2.0]
[[check]]
id = "a-vs-x"
kind = "columns_within"
a = "a"
b = "x"
tolerance = 2.5
)");
  const Study s = load_study(file, dir.string());
  std::ostringstream log;
  const RunOutcome o = run_study(s, "quick", dir / "results", toy::options(1, false, false), log);
  const Analysis a = analyse(s, o, dir.string());
  const Verdict& v = verdict(a, "a-vs-x");
  // a = 2 in both runs: against x = 2 the relative deviation is 0; against x = 0 it is the absolute 2
  // (before: |2 - 0| / 1e-300 = 2e+300 printed as "relative").
  BOOST_TEST(v.verdict == "pass", v.detail);
  BOOST_TEST(contains(v.detail, "largest relative deviation 0"), v.detail);
  BOOST_TEST(contains(v.detail, "largest absolute deviation 2 where the reference is 0 (1 run)"), v.detail);
  BOOST_TEST(!contains(v.detail, "e+"), v.detail);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(bad_filters_and_errata_are_load_errors) {
  const auto dir = toy::temp_dir("filters_bad");
  fs::create_directories(dir / "validation");
  toy::write(dir / "validation" / "toy_values.csv", kReference);
  auto load_error = [&](const std::string& body) {
    const auto file = toy::write(dir / "studies" / "bad.toml", std::string("[study]\nname = \"bad\"\nexperiment = \"toy_power\"\n"
                                                                           "metrics = [\"y\", \"y_ref\"]\n") + body);
    try {
      load_study(file, dir.string());
    } catch (const StudyError& e) {
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  const std::string unknown = load_error(
      "[[check]]\nid = \"c\"\nkind = \"within\"\nquantity = \"y\"\nvalue = 1.0\nreference_file = \"validation/toy_values.csv\"\n"
      "errata = [\"no such quantity\"]\n");
  BOOST_TEST(contains(unknown, "errata"), unknown);
  BOOST_TEST(contains(unknown, "no such quantity"), unknown);
  const std::string no_file = load_error("[[check]]\nid = \"c\"\nkind = \"within\"\nquantity = \"y\"\nvalue = 1.0\nerrata = [\"onset angle\"]\n");
  BOOST_TEST(contains(no_file, "reference_file"), no_file);
  const std::string no_bounds = load_error("[[check]]\nid = \"c\"\nkind = \"bounds\"\nquantity = \"y\"\n");
  BOOST_TEST(contains(no_bounds, "min, max or both"), no_bounds);
  const std::string empty_list =
      load_error("[[check]]\nid = \"c\"\nkind = \"bounds\"\nquantity = \"y\"\nmin = 0.0\nwhere = { x = [] }\n");
  BOOST_TEST(contains(empty_list, "where.x"), empty_list);  // not silently "every run"
  BOOST_TEST(contains(empty_list, "non-empty list"), empty_list);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
