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

BOOST_AUTO_TEST_SUITE_END()
