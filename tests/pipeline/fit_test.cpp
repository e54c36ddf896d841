// Least-squares fits recover known parameters and their standard errors.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "pipeline/fit.hpp"

using namespace grainlab::pipeline;
namespace tt = boost::test_tools;

BOOST_AUTO_TEST_SUITE(fits)

BOOST_AUTO_TEST_CASE(linear_fit_matches_closed_form_errors) {
  // y = 1 + 2x + alternating +-0.1: closed-form OLS gives the estimates and SE(b) = s / sqrt(Sxx).
  std::vector<double> x, y;
  for (int i = 0; i < 10; ++i) x.push_back(i), y.push_back(1 + 2 * i + (i % 2 ? 0.1 : -0.1));
  const FitResult f = fit_model("linear", x, y);
  double mx = 4.5, my = 0, sxx = 0, sxy = 0;
  for (double v : y) my += v / 10;
  for (int i = 0; i < 10; ++i) sxx += (x[i] - mx) * (x[i] - mx), sxy += (x[i] - mx) * (y[i] - my);
  const double b = sxy / sxx, a = my - b * mx;
  double rss = 0;
  for (int i = 0; i < 10; ++i) rss += std::pow(y[i] - a - b * x[i], 2);
  const double s2 = rss / 8;
  BOOST_TEST(f.values[0] == a, tt::tolerance(1e-7));
  BOOST_TEST(f.values[1] == b, tt::tolerance(1e-7));
  BOOST_TEST(f.std_errors[1] == std::sqrt(s2 / sxx), tt::tolerance(1e-5));
  BOOST_TEST(f.std_errors[0] == std::sqrt(s2 * (1.0 / 10 + mx * mx / sxx)), tt::tolerance(1e-5));
}

BOOST_AUTO_TEST_CASE(nonlinear_fits_recover_parameters) {
  std::vector<double> x, yp, ys;
  for (int i = 1; i <= 12; ++i) {
    const double t = 0.5 * i, noise = 1e-3 * std::sin(7.0 * i);
    x.push_back(t);
    yp.push_back(3.0 * std::pow(t, 0.75) * (1 + noise));
    ys.push_back(5.0 * (1 - std::exp(-t / 1.5)) * (1 + noise));
  }
  const FitResult p = fit_model("power", x, yp);
  BOOST_TEST(p.converged);
  BOOST_TEST(p.values[0] == 3.0, tt::tolerance(5e-3));
  BOOST_TEST(p.values[1] == 0.75, tt::tolerance(5e-3));
  BOOST_TEST(std::abs(p.values[1] - 0.75) < 5 * p.std_errors[1] + 1e-12);  // consistent with its SE
  BOOST_TEST(p.std_errors[1] < 5e-3);
  const FitResult s = fit_model("saturating", x, ys);
  BOOST_TEST(s.values[0] == 5.0, tt::tolerance(5e-3));
  BOOST_TEST(s.values[1] == 1.5, tt::tolerance(1e-2));
  BOOST_TEST(s.r2 > 0.9999);
}

BOOST_AUTO_TEST_CASE(exact_data_gives_zero_errors_and_bad_input_throws) {
  const FitResult f = fit_model("proportional", {1, 2, 3}, {2, 4, 6});
  BOOST_TEST(f.values[0] == 2.0, tt::tolerance(1e-9));
  BOOST_TEST(f.std_errors[0] < 1e-6);
  BOOST_CHECK_THROW(fit_model("linear", {1, 2}, {1, 2}), std::invalid_argument);
  BOOST_CHECK_THROW(fit_model("cubic", {1, 2, 3, 4}, {1, 2, 3, 4}), std::invalid_argument);
}

namespace {
/// Eq. (41) points at eps = 0.05 with the paper's c0 = 0.3, c1 = 2.0, c2 = 0.44 (000 l.677) and a 2 %
/// deterministic scatter: containers (I = 0) of w = 3 ... 15 and, unless `containers_only`, drums (w = 80)
/// at several I.
void eq41_points(bool containers_only, std::vector<std::vector<double>>& x, std::vector<double>& y) {
  const ModelSettings eps005;
  for (double w : {3.0, 6.0, 9.0, 15.0})
    for (double l : {5.0, 10.0, 20.0, 40.0, 80.0}) x.push_back({l, w, 0.0});
  if (!containers_only)
    for (double l : {8.0, 12.0, 17.0})
      for (double I : {0.0, 0.05, 0.1, 0.2}) x.push_back({l, 80.0, I});
  for (size_t i = 0; i < x.size(); ++i)
    y.push_back(evaluate_model("eq41", x[i], {0.3, 2.0, 0.44}, eps005) * (1 + 0.02 * std::sin(7.0 * double(i))));
}
}  // namespace

BOOST_AUTO_TEST_CASE(eq41_fit_recovers_known_coefficients_within_their_errors) {
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  eq41_points(false, x, y);
  const FitResult f = fit_model("eq41", x, y, {}, ModelSettings{});
  BOOST_TEST(f.converged);
  BOOST_TEST((f.names == std::vector<std::string>{"c0", "c1", "c2"}));
  const double truth[] = {0.3, 2.0, 0.44};
  for (size_t j = 0; j < 3; ++j) {
    BOOST_TEST_INFO(f.names[j] << " = " << f.values[j] << " +- " << f.std_errors[j]);
    BOOST_TEST(std::abs(f.values[j] - truth[j]) <= 3 * f.std_errors[j]);  // recovered within its standard error
    BOOST_TEST(std::isfinite(f.std_errors[j]));
    BOOST_TEST(f.std_errors[j] < 0.2 * truth[j]);
  }
  BOOST_TEST(f.r2 > 0.99);
  // The same data read at another eps: N_it ~ 1/eps, so c0 scales with eps and c1, c2 do not change.
  const FitResult g = fit_model("eq41", x, y, {}, ModelSettings{.tolerance = 0.1});
  BOOST_TEST(g.values[0] == 2 * f.values[0], tt::tolerance(1e-6));
  BOOST_TEST(g.values[2] == f.values[2], tt::tolerance(1e-6));
  // Exact data: exact coefficients.
  std::vector<double> exact;
  for (const auto& p : x) exact.push_back(evaluate_model("eq41", p, {0.3, 2.0, 0.44}));
  const FitResult e = fit_model("eq41", x, exact, {}, ModelSettings{});
  BOOST_TEST(e.values[0] == 0.3, tt::tolerance(1e-6));
  BOOST_TEST(e.values[1] == 2.0, tt::tolerance(1e-6));
  BOOST_TEST(e.values[2] == 0.44, tt::tolerance(1e-6));
}

BOOST_AUTO_TEST_CASE(eq41_branches_and_limits) {
  // w >= 5: w (1 - exp(-c2 l/w)); w < 5: c2 l (000 l.666); the shallow limit w >> l gives c2 l (000 l.677).
  const std::vector<double> c{0.3, 2.0, 0.44};
  BOOST_TEST(evaluate_model("eq41", {10, 6, 0}, c) == 0.3 / 0.05 * 6 * (1 - std::exp(-0.44 * 10 / 6)), tt::tolerance(1e-12));
  BOOST_TEST(evaluate_model("eq41", {10, 3, 0.1}, c) == 0.3 * 1.2 / 0.05 * 0.44 * 10, tt::tolerance(1e-12));
  BOOST_TEST(evaluate_model("eq41", {10, 3, 0}, c, ModelSettings{.narrow_width = 0}) == 0.3 / 0.05 * 3 * (1 - std::exp(-0.44 * 10 / 3)),
             tt::tolerance(1e-12));
  const double shallow = evaluate_model("eq41", {1, 1000, 0}, c) / evaluate_model("eq41", {1, 1000, 0}, c, ModelSettings{.narrow_width = 1e9});
  BOOST_TEST(shallow == 1.0, tt::tolerance(3e-4));
  const double deep = evaluate_model("eq41", {1000, 10, 0}, c) / evaluate_model("eq41", {1000, 10, 0}, c, ModelSettings{.narrow_width = 1e9});
  BOOST_TEST(deep < 0.1);
  BOOST_CHECK_THROW(evaluate_model("eq41", {1, 2}, c), std::invalid_argument);
  BOOST_CHECK_THROW(fit_model("eq41", {1, 2, 3, 4, 5}, {1, 2, 3, 4, 5}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(eq41_without_rate_dependence_leaves_c1_undetermined) {
  // Containers only (every I = 0, P16): c1 multiplies zero, so the data cannot determine it. It is NaN
  // with an infinite standard error (a check on it fails); c0 and c2 are still fitted with finite errors.
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  eq41_points(true, x, y);
  const FitResult f = fit_model("eq41", x, y, {}, ModelSettings{});
  BOOST_TEST(std::isnan(f.values[1]));
  BOOST_TEST(std::isinf(f.std_errors[1]));
  BOOST_TEST(f.values[0] == 0.3, tt::tolerance(0.05));
  BOOST_TEST(f.values[2] == 0.44, tt::tolerance(0.05));
  BOOST_TEST(std::isfinite(f.std_errors[0]));
  BOOST_TEST(std::isfinite(f.std_errors[2]));
}

BOOST_AUTO_TEST_SUITE_END()
