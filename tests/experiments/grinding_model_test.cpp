// Gavrilov's grinding models (experiments/grinding_model.hpp): the closed form (3.29) against the matrix
// exponential and against a fine explicit integration of (3.26), mass conservation, p ~ r^2, the Monte Carlo
// mean against (3.29), and the Fig. 3.8 toy chain against its expected 19.737 collisions.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <numeric>
#include <random>

#include "experiments/grinding_model.hpp"

using namespace grainlab::grinding;

BOOST_AUTO_TEST_SUITE(grinding_model)

BOOST_AUTO_TEST_CASE(closed_form_solves_the_ode) {
  Mill mill;
  const Baskets b = make_baskets(mill, 2e-3, 1e-6);
  BOOST_CHECK_EQUAL(b.p.size(), 34u);  // k = 33 (ledger)
  BOOST_CHECK_CLOSE(b.radius.back(), 0.9765625e-6, 1e-9);
  BOOST_CHECK_CLOSE(b.p[0], 2.0 * M_PI * 3.2e-3 * 4e-6 / mill.available_volume, 1e-9);  // (3.20), R1 = R2
  BOOST_CHECK_CLOSE(b.p[0] / b.p[3], 4.0, 1e-9);  // p ~ r^2: three baskets halve r
  for (double lt : {1e3, 1e6, 8.64e9}) {
    const auto x = bateman(b, lt), e = matrix_exponential(b, lt);
    BOOST_CHECK_CLOSE(std::accumulate(x.begin(), x.end(), 0.0), 1.0, 1e-9);
    for (std::size_t i = 0; i < x.size(); ++i) BOOST_CHECK_SMALL(x[i] - e[i], 1e-12);
  }
  // Independent: RK4 on the first five baskets for lambda t = 2e4 (p0 lambda t ~ 5).
  const int n = 5;
  std::vector<double> y(n, 0.0);
  y[0] = 1;
  const double T = 2e4, h = 1.0;
  auto f = [&](const std::vector<double>& s) {
    std::vector<double> d(n);
    for (int i = 0; i < n; ++i) d[i] = -b.p[i] * s[i] + (i ? b.p[i - 1] * s[i - 1] : 0.0);
    return d;
  };
  for (double t = 0; t < T - 1e-9; t += h) {
    auto k1 = f(y), s = y;
    for (int i = 0; i < n; ++i) s[i] = y[i] + h / 2 * k1[i];
    auto k2 = f(s);
    for (int i = 0; i < n; ++i) s[i] = y[i] + h / 2 * k2[i];
    auto k3 = f(s);
    for (int i = 0; i < n; ++i) s[i] = y[i] + h * k3[i];
    auto k4 = f(s);
    for (int i = 0; i < n; ++i) y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  const auto x = bateman(b, T);
  for (int i = 0; i < n; ++i) BOOST_CHECK_SMALL(x[i] - y[i], 1e-9);
  // The printed row 3 of (3.27) is not the same system.
  const auto printed = matrix_exponential(b, 1e4, true), fixed = matrix_exponential(b, 1e4, false);
  BOOST_CHECK(!(std::abs(printed[2] - fixed[2]) < 1e-6));
}

BOOST_AUTO_TEST_CASE(monte_carlo_conserves_mass_and_follows_the_mean) {
  Mill mill;
  const Baskets b = make_baskets(mill, 2e-3, 1e-6);
  const double lt = 3e5;  // a few baskets deep
  const auto x = bateman(b, lt);
  std::vector<double> mean(b.p.size(), 0.0);
  const int runs = 20;
  for (int k = 0; k < runs; ++k) {
    std::mt19937_64 rng(k + 1);
    const auto r = monte_carlo(b, 1000, lt, 0.002, rng);
    double mass = 0;
    for (std::size_t i = 0; i < b.p.size(); ++i) mass += r.count[i] * std::pow(b.radius[i] / b.radius[0], 3);
    BOOST_CHECK_CLOSE(mass, 1000.0, 1e-9);  // every split conserves volume
    for (std::size_t i = 0; i < b.p.size(); ++i) mean[i] += r.mass_fraction[i] / runs;
  }
  for (std::size_t i = 0; i < b.p.size(); ++i)
    if (x[i] > 0.05) BOOST_CHECK_CLOSE(mean[i], x[i], 2.0);
}

BOOST_AUTO_TEST_CASE(toy_chain_expectation) {
  std::mt19937_64 rng(3);
  double s = 0;
  const int n = 200000;
  for (int k = 0; k < n; ++k) s += toy_chain_collisions(0.2, 0.1, rng);
  // 5 + (1 + 0.18 * 10) / 0.19 = 19.737 (ledger T2); SE ~ 0.025.
  BOOST_CHECK_SMALL(s / n - (5 + (1 + 0.18 * 10) / 0.19), 0.1);
}

BOOST_AUTO_TEST_SUITE_END()
