// Paper I E1b study end to end (studies/paper1_hertz_column.toml): the claim check P1-C34 compares the
// overlaps with Eq. 11 written out in validation/paper1/hertz_column_reference.py, not with the engine's
// hertz_stiffness, so a k_n convention error turns it red: R* = r instead of r/2 between spheres
// (reference_kn_pair x sqrt 2, the script's --perturb radius) and E instead of E/(1 - nu^2) (--perturb modulus).
#include <boost/test/unit_test.hpp>

#include <sstream>

#include "pipeline/analysis.hpp"
#include "pipeline/version.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab::pipeline;

BOOST_AUTO_TEST_SUITE(paper1_hertz_column)

BOOST_AUTO_TEST_CASE(wrong_kn_convention_turns_check_red) {
  const std::string root = grainlab::source_dir();
  const Study base = load_study(root + "/studies/paper1_hertz_column.toml", root);
  auto dir = toy::temp_dir("hertz_column");
  std::ostringstream log;
  auto verdict = [&](const Study& s, const std::string& sub) {
    const Analysis a = analyse(s, run_study(s, "quick", dir / sub, toy::options(1, false, false), log), root);
    for (const auto& v : a.verdicts)
      if (v.id == "hertz_mean_overlap_error") return v;
    throw std::runtime_error("no hertz_mean_overlap_error verdict");
  };
  const Verdict ok = verdict(base, "base");
  BOOST_TEST(ok.verdict == "pass", ok.detail);  // Eq. 11 as written: every E below 0.001 d at h = 0.01 s
  Study radius = base;  // R* = r between spheres: k x sqrt(2)
  radius.parameters["reference_kn_pair"] = 0.51802695;
  const Verdict r = verdict(radius, "radius");
  BOOST_TEST(r.verdict == "fail", r.detail);
  Study modulus = base;  // E in place of E/(1 - nu^2): k x (1 - nu^2)
  modulus.parameters["reference_kn_pair"] = 0.33333333;
  modulus.parameters["reference_kn_floor"] = 0.47140452;
  const Verdict m = verdict(modulus, "modulus");
  BOOST_TEST(m.verdict == "fail", m.detail);
  BOOST_TEST_MESSAGE("base: " << ok.verdict << " " << ok.detail << "; radius: " << r.detail << "; modulus: " << m.detail);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
