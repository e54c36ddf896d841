// min_reaching with stays = true ("required N_it": every larger x reaches too) and scalar_mean (averages
// of required counts and of their ratios), as the Paper IV column study uses them; their load errors.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <sstream>

#include "pipeline/analysis.hpp"
#include "tests/pipeline/report_test_helpers.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab::pipeline;
namespace tt = boost::test_tools;

namespace {
// y = 2 x^b with b = -1, -1, 1, -1 at x = 1..4: y = 2, 1, 6, 0.5. Below 1.5 first at x = 2, but x = 3
// misses again, so the x from which every larger x reaches is 4.
const std::string head = R"([study]
name = "req"
experiment = "toy_power"
metrics = ["y"]
[sweep.zip]
x = [1.0, 2.0, 3.0, 4.0]
b = [-1.0, -1.0, 1.0, -1.0]
[[derived]]
name = "first"
kind = "min_reaching"
x = "x"
y = "y"
threshold = 1.5
[[derived]]
name = "stays"
kind = "min_reaching"
x = "x"
y = "y"
threshold = 1.5
stays = true
)";
}  // namespace

BOOST_AUTO_TEST_SUITE(required_iterations)

BOOST_AUTO_TEST_CASE(stays_skips_a_lucky_dip_and_scalar_mean_averages) {
  auto dir = toy::temp_dir("required");
  const auto file = toy::write(dir / "studies" / "req.toml", head + R"([[derived]]
name = "ratio"
kind = "scalar_mean"
of = ["stays", "first"]
per = ["first", "stays"]
[[derived]]
name = "geo"
kind = "scalar_mean"
of = ["first", "stays"]
[[derived]]
name = "arith"
kind = "scalar_mean"
of = ["first", "stays"]
mean = "arithmetic"
[[derived]]
name = "never"
kind = "min_reaching"
x = "x"
y = "y"
threshold = 0.1
stays = true
[[derived]]
name = "with_nan"
kind = "scalar_mean"
of = ["first", "never"]
[[check]]
id = "majority"
kind = "within"
quantity = "ratio.above_one"
value = 1.0
tolerance = 0.49
)");
  const Study s = load_study(file, dir.string());
  std::ostringstream log;
  const RunOutcome o = run_study(s, "quick", dir / "results", toy::options(2, false, false), log);
  const Analysis a = analyse(s, o, dir.string());
  BOOST_TEST(a.scalars.at("first") == 2.0);
  BOOST_TEST(a.scalars.at("stays") == 4.0);
  BOOST_TEST(a.scalars.at("ratio") == 1.0, tt::tolerance(1e-12));  // geometric mean of 2 and 1/2
  BOOST_TEST(a.scalars.at("ratio.above_one") == 0.5);              // one of two terms > 1: no majority
  BOOST_TEST(a.scalars.at("geo") == std::sqrt(8.0), tt::tolerance(1e-12));
  BOOST_TEST(a.scalars.at("arith") == 3.0, tt::tolerance(1e-12));
  BOOST_TEST(std::isnan(a.scalars.at("never")));
  BOOST_TEST(std::isnan(a.scalars.at("with_nan")));  // a term that never reached poisons the mean
  BOOST_TEST(test::verdict(a, "majority").verdict == "fail");
}

BOOST_AUTO_TEST_CASE(scalar_mean_names_earlier_scalars_of_matching_length) {
  auto dir = toy::temp_dir("required_bad");
  auto error = [&](const std::string& extra) {
    try {
      load_study(toy::write(dir / "studies" / "bad.toml", head + extra), dir.string());
    } catch (const StudyError& e) {
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  const std::string unknown = error("[[derived]]\nname = \"m\"\nkind = \"scalar_mean\"\nof = [\"stay\"]\n");
  BOOST_TEST(unknown.find("derived 'm'.of: 'stay' is not a scalar of an earlier derived quantity; did you mean 'stays'?") !=
                 std::string::npos, unknown);
  const std::string length = error("[[derived]]\nname = \"m\"\nkind = \"scalar_mean\"\nof = [\"first\", \"stays\"]\nper = [\"first\"]\n");
  BOOST_TEST(length.find("derived 'm'.per: 1 names for 2 in `of`") != std::string::npos, length);
  const std::string kind = error("[[derived]]\nname = \"m\"\nkind = \"scalar_mean\"\nof = [\"first\"]\nmean = \"median\"\n");
  BOOST_TEST(kind.find("derived[2].mean: 'median' is not one of: geometric, arithmetic, harmonic") != std::string::npos, kind);
  const std::string flag = error("[[derived]]\nname = \"m\"\nkind = \"min_reaching\"\nx = \"x\"\ny = \"y\"\nthreshold = 1\nstays = 1\n");
  BOOST_TEST(flag.find("stays") != std::string::npos, flag);
}

BOOST_AUTO_TEST_SUITE_END()
