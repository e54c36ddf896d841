// `known_disagreement` on a check: a failing check records the finding as "not reproduced" (the study stays
// green, the claim counts as failed), a passing one is a fail until the recorded finding is reviewed, and a
// failed run under the check stays a plain fail.
#include <boost/test/unit_test.hpp>

#include <sstream>

#include "pipeline/analysis.hpp"
#include "tests/pipeline/report_test_helpers.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab::pipeline;

namespace {
// y = 2 x^-1 at x = 1, 2, 4: y = 2, 1, 0.5.
const std::string study = R"([study]
name = "known"
experiment = "toy_power"
metrics = ["y"]
[parameters]
b = -1.0
[sweep.grid]
x = [1.0, 2.0, 4.0]
[[check]]
id = "disagrees"
kind = "bounds"
claim = "T-C01"
quantity = "y"
max = 1.5
known_disagreement = "y = 2 at x = 1"
[[check]]
id = "agrees_now"
kind = "bounds"
claim = "T-C02"
quantity = "y"
max = 3.0
known_disagreement = "y above 3 somewhere"
[[check]]
id = "plain"
kind = "bounds"
quantity = "y"
max = 1.5
)";
}  // namespace

BOOST_AUTO_TEST_SUITE(known_disagreement)

BOOST_AUTO_TEST_CASE(a_failing_check_records_the_finding_and_a_passing_one_asks_for_review) {
  auto dir = toy::temp_dir("known");
  const Study s = load_study(toy::write(dir / "studies" / "known.toml", study), dir.string());
  std::ostringstream log;
  const Analysis a = analyse(s, run_study(s, "quick", dir / "results", toy::options(2, false, false), log), dir.string());
  const auto& disagrees = test::verdict(a, "disagrees");
  BOOST_TEST(disagrees.verdict == "not reproduced");
  BOOST_TEST(disagrees.detail.find("known disagreement: y = 2 at x = 1 (measured now: 2 of 3 runs") == 0, disagrees.detail);
  const auto& agrees = test::verdict(a, "agrees_now");
  BOOST_TEST(agrees.verdict == "fail");
  BOOST_TEST(agrees.detail.find("but passes now: review") != std::string::npos, agrees.detail);
  BOOST_TEST(test::verdict(a, "plain").verdict == "fail");  // the same check without the key
  BOOST_TEST(!a.passed());                                  // agrees_now and plain fail
}

BOOST_AUTO_TEST_SUITE_END()
