// Derived kind relative_deviation: |y / reference - 1| per selected run (NaN elsewhere), feeding a
// "levels out" min_reaching (Paper IV E4); its load errors.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <sstream>

#include "pipeline/analysis.hpp"
#include "tests/pipeline/report_test_helpers.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab::pipeline;
namespace tt = boost::test_tools;

namespace {
// y = 2 x^b: 2, 1, 6, 0.5 at x = 1..4 (b = -1, -1, 1, -1); reference y(x = 4) = 0.5.
const std::string head = R"([study]
name = "dev"
experiment = "toy_power"
metrics = ["y"]
[sweep.zip]
x = [1.0, 2.0, 3.0, 4.0]
b = [-1.0, -1.0, 1.0, -1.0]
[[derived]]
name = "ref"
kind = "value_at"
y = "y"
where = { x = 4.0 }
)";
}  // namespace

BOOST_AUTO_TEST_SUITE(relative_deviation)

BOOST_AUTO_TEST_CASE(deviation_from_a_reference_run_and_levelling) {
  auto dir = toy::temp_dir("reldev");
  const auto file = toy::write(dir / "studies" / "dev.toml", head + R"([[derived]]
name = "dev"
kind = "relative_deviation"
y = "y"
reference = "ref"
where = { x = [2.0, 3.0, 4.0] }
[[derived]]
name = "level"
kind = "min_reaching"
x = "x"
y = "dev"
threshold = 1.5
stays = true
)");
  const Study s = load_study(file, dir.string());
  std::ostringstream log;
  const RunOutcome o = run_study(s, "quick", dir / "results", toy::options(2, false, false), log);
  const Analysis a = analyse(s, o, dir.string());
  std::map<double, double> dev;
  for (const auto& r : a.rows) dev[r.num.at("x")] = r.num.at("dev");
  BOOST_TEST(std::isnan(dev[1.0]));  // outside `where`
  BOOST_TEST(dev[2.0] == 1.0, tt::tolerance(1e-12));   // |1 / 0.5 - 1|
  BOOST_TEST(dev[3.0] == 11.0, tt::tolerance(1e-12));  // |6 / 0.5 - 1|
  BOOST_TEST(dev[4.0] == 0.0);
  BOOST_TEST(a.scalars.at("level") == 4.0);  // x = 2 is within 1.5, but x = 3 is not again
}

BOOST_AUTO_TEST_CASE(reference_must_be_an_earlier_scalar) {
  auto dir = toy::temp_dir("reldev_bad");
  std::string msg = "loaded";
  try {
    load_study(toy::write(dir / "studies" / "bad.toml", head + "[[derived]]\nname = \"d\"\nkind = \"relative_deviation\"\ny = \"y\"\nreference = \"rf\"\n"),
               dir.string());
  } catch (const StudyError& e) {
    msg = e.what();
  }
  BOOST_TEST(msg.find("bad.toml:17: derived 'd'.reference: 'rf' is not a scalar of an earlier derived quantity; did you mean 'ref'?") !=
                 std::string::npos, msg);
}

BOOST_AUTO_TEST_SUITE_END()
