// Paper IV E2b pieces: the curve comparisons (experiments/convergence_curves.hpp) on curves with known
// answers, the pile preparation (experiments/pile_preparation.hpp) and the ndem_pile_diagnostics
// experiment on a tiny pile, including the beta = 0 perturbation (WH = COLD, every ratio exactly 1).
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "experiments/convergence_curves.hpp"
#include "experiments/experiment.hpp"
#include "experiments/pile_preparation.hpp"

using namespace grainlab;

BOOST_AUTO_TEST_SUITE(pile_diagnostics)

BOOST_AUTO_TEST_CASE(curve_ratios_and_slopes) {
  std::vector<double> a, b;
  for (int k = 1; k <= 100; ++k) {
    a.push_back(5.0 * std::pow(10.0, -0.02 * k));  // 5x b, the same slope
    b.push_back(std::pow(10.0, -0.02 * k) * (k == 40 ? 2.0 : 1.0));
  }
  BOOST_TEST(curve_ratio_at(a, b, 1) == 5.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(std::isnan(curve_ratio_at(a, b, 0)));
  BOOST_TEST(std::isnan(curve_ratio_at(a, b, 101)));
  const CurveRatioRange r = curve_ratio_range(a, b, 1, 100);
  BOOST_TEST(r.min == 2.5, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(r.argmin == 40);
  BOOST_TEST(r.max == 5.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(log10_slope(a, 1, 100) == -0.02, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(log10_slope(a, 10, 30) == -0.02, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(std::isnan(log10_slope(a, 50, 101)));
  std::vector<double> with_zero = a;
  with_zero[3] = 0;
  BOOST_TEST(std::isnan(log10_slope(with_zero, 1, 10)));
  BOOST_TEST(std::isnan(mean_value(std::vector<double>{})));
}

BOOST_AUTO_TEST_CASE(log10_histograms) {
  const std::vector<double> x = {1e-3, 2e-3, 1e-2, 0.0, 0.5};
  const std::vector<double> y = {1e-5};
  const io::HistogramAxis axis = log10_axis({x, y}, 2);
  BOOST_TEST(axis.lower == -5.0);
  BOOST_TEST(axis.upper == 0.0);
  BOOST_TEST(axis.bins == 10);
  std::size_t zeros = 0;
  const io::Histogram h = log10_histogram(x, axis, zeros);
  BOOST_TEST(zeros == 1u);
  BOOST_TEST(h.total() == 4u);
  BOOST_TEST(h.counts[4] == 2u);  // [-3, -2.5): 1e-3 and 2e-3
  BOOST_TEST(h.counts[6] == 1u);  // [-2, -1.5): 1e-2
  BOOST_TEST(h.counts[9] == 1u);  // [-0.5, 0]: 0.5
}

BOOST_AUTO_TEST_CASE(preparation_emits_count_and_settles) {
  Material m;
  m.density = 3700;
  m.youngs_modulus = 6e6;
  m.poisson_ratio = 0.25;
  m.restitution = 0.18;
  m.friction = 0.91;
  m.rolling_friction = 0.32;
  World w = pile_world(m, 9.81);
  NdemSettings s;
  s.iterations = 100;
  NdemStepper ndem(s);
  PileSource src;
  src.count = 30;
  src.height = 4;
  PileRestRule rest;
  rest.settle_max = 3;
  const PileStats st = prepare_resting_pile(w, src, rest, ndem);
  BOOST_TEST(st.particles == 30u);
  BOOST_TEST(w.particles.size() == 30u);
  BOOST_TEST(st.at_rest);
  BOOST_TEST(st.max_speed < rest.rest_speed);
  BOOST_TEST(st.settle_time >= rest.settle_min - 1e-9);
  BOOST_TEST(st.height > src.diameter);  // more than one layer
  BOOST_TEST(st.height < src.height * src.diameter);
  for (const Vec3& x : w.particles.position) BOOST_TEST(x.z() > 0.4 * src.diameter);  // on the ground, not through it
  // Bad input names the parameter.
  World w2 = pile_world(m, 9.81);
  src.rate = 1000;  // 5 per step at dt = 5 ms
  try {
    prepare_resting_pile(w2, src, rest, ndem);
    BOOST_FAIL("no InputError");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("emission_rate") != std::string::npos);
  }
}

namespace {
RunResult tiny_run(double beta) {
  const Experiment& e = find_experiment("ndem_pile_diagnostics");
  RunContext ctx;
  const Parameters p = e.complete({{"count", std::int64_t(40)},
                                   {"source_height", 4.0},
                                   {"settle_max_time", 2.0},
                                   {"run_time", 0.1},
                                   {"measure_iterations", std::int64_t(60)},
                                   {"common_reference_iterations", std::int64_t(120)},
                                   {"sample_k1", std::int64_t(5)},
                                   {"sample_k2", std::int64_t(10)},
                                   {"sample_k3", std::int64_t(20)},
                                   {"slope_from", std::int64_t(5)},
                                   {"slope_to", std::int64_t(60)},
                                   {"warm_start_beta", beta}});
  return e.run(p, ctx);
}
}  // namespace

BOOST_AUTO_TEST_CASE(experiment_and_the_beta0_perturbation) {
  const RunResult r = tiny_run(0.85);
  const auto& M = r.metrics;
  BOOST_TEST(M.at("particles") == 40.0);
  BOOST_TEST(M.at("prep_at_rest") == 1.0);
  const TimeSeries& eps = r.series.at("multiplier_error");
  BOOST_TEST_REQUIRE(eps.rows.size() == 60u);
  BOOST_TEST(eps.rows.back()[1] == 0.0);  // Eq. 13 with the solve's own lambda_60: 0 at k = 60
  BOOST_TEST(eps.rows.back()[2] == 0.0);
  BOOST_TEST(eps.rows.front()[1] > eps.rows[30][1]);
  BOOST_TEST(r.series.at("mean_residual").rows.size() == 60u);
  BOOST_TEST(!r.series.at("residual_histogram").rows.empty());
  BOOST_TEST(M.at("residual_ratio_k5") > 1.0);  // the warm start leads early in the solve
  // beta = 0: the history warm start guesses lambda_0 = 0 and applies no impulse, so it IS the cold start.
  const RunResult z = tiny_run(0.0);
  for (const char* k : {"R_n", "R_t", "R_r", "residual_ratio_min", "residual_ratio_max", "eps_lambda_ratio_k10",
                        "eps_lambda_common_ratio_min", "residual_slope_ratio"})
    BOOST_TEST(z.metrics.at(k) == 1.0, k);
  BOOST_TEST(z.metrics.at("eps_lambda_ratio_min") == 1.0);
}

BOOST_AUTO_TEST_CASE(bad_parameters) {
  const Experiment& e = find_experiment("ndem_pile_diagnostics");
  RunContext ctx;
  BOOST_CHECK_THROW(e.run(e.complete({{"slope_to", std::int64_t(600)}}), ctx), InputError);
  BOOST_CHECK_THROW(e.run(e.complete({{"sample_k3", std::int64_t(501)}}), ctx), InputError);
  BOOST_CHECK_THROW(e.run(e.complete({{"rolling_friction", 2.0}}), ctx), InputError);
}

BOOST_AUTO_TEST_SUITE_END()
