// Derived kind mean with skip_nonfinite: only the runs with a finite y count (a rate "while flowing" of a
// hopper run that jammed at once is NaN, studies/gavrilov_e8_hopper.toml); without it a non-finite y
// propagates.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <sstream>

#include "pipeline/analysis.hpp"
#include "tests/pipeline/report_test_helpers.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab::pipeline;
namespace tt = boost::test_tools;

BOOST_AUTO_TEST_SUITE(mean_skip_nonfinite)

BOOST_AUTO_TEST_CASE(non_finite_runs_are_skipped_only_when_asked) {
  auto dir = toy::temp_dir("meanskip");
  // y = 2 x^-1: inf, 2, 1 at x = 0, 1, 2.
  const auto file = toy::write(dir / "studies" / "m.toml", R"([study]
name = "m"
experiment = "toy_power"
metrics = ["y"]
[parameters]
b = -1.0
[sweep.zip]
x = [0.0, 1.0, 2.0]
[[derived]]
name = "all"
kind = "mean"
y = "y"
[[derived]]
name = "finite"
kind = "mean"
y = "y"
skip_nonfinite = true
[[derived]]
name = "none"
kind = "mean"
y = "y"
skip_nonfinite = true
where = { x = 0.0 }
)");
  const Study s = load_study(file, dir.string());
  std::ostringstream log;
  const RunOutcome o = run_study(s, "quick", dir / "results", toy::options(2, false, false), log);
  const Analysis a = analyse(s, o, dir.string());
  BOOST_TEST(!std::isfinite(a.scalars.at("all")));
  BOOST_TEST(a.scalars.at("finite") == 1.5, tt::tolerance(1e-12));
  BOOST_TEST(a.scalars.at("finite.se") == 0.5, tt::tolerance(1e-12));
  BOOST_TEST(std::isnan(a.scalars.at("none")));
}

BOOST_AUTO_TEST_SUITE_END()
