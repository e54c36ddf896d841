#include "experiments/grinding_model.hpp"

#include <Eigen/Dense>
#include <unsupported/Eigen/MatrixFunctions>
#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace grainlab::grinding {

double grinding_volume(double R1, double R2, double r) { return 4 * M_PI * R1 * R2 / (R1 + R2) * r * r; }

Baskets make_baskets(const Mill& mill, double r0, double r_min) {
  if (!(r0 > r_min && r_min > 0)) throw InputError("grinding: need initial_radius > min_radius > 0");
  if (!(mill.available_volume > 0)) throw InputError("grinding: available volume must be > 0");
  const int k = static_cast<int>(std::lround(3 * std::log2(r0 / r_min)));
  Baskets b;
  for (int i = 0; i <= k; ++i) {
    const double r = r0 * std::pow(2.0, -i / 3.0);
    b.radius.push_back(r);
    b.p.push_back(i < k ? grinding_volume(mill.ball_radius, mill.ball_radius, r) / mill.available_volume : 0.0);
  }
  return b;
}

std::vector<double> bateman(const Baskets& b, double lt) {
  const int n = static_cast<int>(b.p.size());
  std::vector<double> x(n, 0.0);
  for (int m = 0; m < n; ++m) {
    // long double: the alternating sum cancels heavily for m ~ 30 (float64 loses ~1e-11).
    long double prod = 1;
    for (int i = 0; i < m; ++i) prod *= b.p[i];
    long double sum = 0;
    for (int i = 0; i <= m; ++i) {
      long double den = 1;
      for (int j = 0; j <= m; ++j)
        if (j != i) den *= static_cast<long double>(b.p[j]) - b.p[i];
      sum += std::exp(-static_cast<long double>(b.p[i]) * lt) / den;
    }
    x[m] = static_cast<double>(prod * sum);
  }
  return x;
}

std::vector<double> matrix_exponential(const Baskets& b, double lt, bool printed_typo) {
  const int n = static_cast<int>(b.p.size());
  using MatrixL = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
  MatrixL P = MatrixL::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    P(i, i) = -b.p[i];
    if (i > 0) P(i, i - 1) = b.p[i - 1];
  }
  if (printed_typo && n > 2) P(2, 1) = -b.p[1], P(2, 2) = b.p[2];  // row 3 as printed, 002 l.988
  const MatrixL E = (P * static_cast<long double>(lt)).exp();
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<double>(E(i, 0));
  return x;
}

double collisions_until_last_holds(const Baskets& b, double fraction) {
  double lo = 0, hi = 1;
  while (bateman(b, hi).back() < fraction) hi *= 2;
  for (int k = 0; k < 200 && hi - lo > 1e-12 * hi; ++k) {
    const double mid = 0.5 * (lo + hi);
    (bateman(b, mid).back() < fraction ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

MonteCarloResult monte_carlo(const Baskets& b, std::int64_t n0, double collisions, double leap, std::mt19937_64& rng) {
  const int n = static_cast<int>(b.p.size());
  std::vector<std::int64_t> N(n, 0);
  N[0] = n0;
  double done = 0;
  while (done < collisions) {
    double pmax = 0;
    for (int i = 0; i < n; ++i)
      if (N[i] > 0) pmax = std::max(pmax, b.p[i]);
    if (pmax == 0) break;
    const double step = std::min(collisions - done, leap / pmax);  // collisions in this leap
    std::vector<std::int64_t> broken(n, 0);
    for (int i = 0; i + 1 < n; ++i) {
      if (N[i] == 0) continue;
      const double q = -std::expm1(step * std::log1p(-b.p[i]));  // 1 - (1 - p)^step
      broken[i] = std::binomial_distribution<std::int64_t>(N[i], q)(rng);
    }
    for (int i = 0; i + 1 < n; ++i) N[i] -= broken[i], N[i + 1] += 2 * broken[i];
    done += step;
  }
  MonteCarloResult r;
  double total = 0;
  for (int i = 0; i < n; ++i) total += N[i] * std::pow(b.radius[i] / b.radius[0], 3);
  for (int i = 0; i < n; ++i) {
    r.count.push_back(static_cast<double>(N[i]));
    r.mass_fraction.push_back(N[i] * std::pow(b.radius[i] / b.radius[0], 3) / total);
  }
  return r;
}

int toy_chain_collisions(double p0, double p1, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  int b0 = 1, b1 = 0, collisions = 0;
  while (b0 > 0 || b1 > 0) {
    ++collisions;
    int broken0 = 0, broken1 = 0;
    for (int i = 0; i < b0; ++i) broken0 += u(rng) < p0;
    for (int i = 0; i < b1; ++i) broken1 += u(rng) < p1;
    b0 -= broken0, b1 += 2 * broken0 - broken1;
  }
  return collisions;
}

}  // namespace grainlab::grinding
