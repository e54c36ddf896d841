// Straight-line and Janssen fits of a pressure profile (see janssen_fit.hpp).
#include "experiments/janssen_fit.hpp"

#include <cmath>
#include <cstddef>
#include <limits>

namespace grainlab {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

double mean(std::span<const double> v) {
  double s = 0;
  for (double x : v) s += x;
  return s / double(v.size());
}

double r_squared(std::span<const double> y, double rss) {
  const double m = mean(y);
  double tss = 0;
  for (double v : y) tss += (v - m) * (v - m);
  return tss > 0 ? 1 - rss / tss : nan;
}

// Best p_sat for a given lambda and the residual sum of squares.
double janssen_rss(std::span<const double> depth, std::span<const double> p, double lambda, double& p_sat) {
  double su = 0, sy = 0;
  for (std::size_t i = 0; i < depth.size(); ++i) {
    const double u = 1 - std::exp(-depth[i] / lambda);
    su += u * u;
    sy += u * p[i];
  }
  p_sat = su > 0 ? sy / su : 0;
  double rss = 0;
  for (std::size_t i = 0; i < depth.size(); ++i) {
    const double e = p[i] - p_sat * (1 - std::exp(-depth[i] / lambda));
    rss += e * e;
  }
  return rss;
}

}  // namespace

LineFit fit_line(std::span<const double> x, std::span<const double> y) {
  if (x.size() < 2 || x.size() != y.size()) return {nan, nan, nan};
  const double mx = mean(x), my = mean(y);
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  if (!(sxx > 0)) return {nan, nan, nan};
  LineFit f;
  f.slope = sxy / sxx;
  f.intercept = my - f.slope * mx;
  double rss = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double e = y[i] - f.intercept - f.slope * x[i];
    rss += e * e;
  }
  f.r2 = r_squared(y, rss);
  return f;
}

JanssenFit fit_janssen(std::span<const double> depth, std::span<const double> p, double lambda_min, double lambda_max) {
  if (depth.size() < 2 || depth.size() != p.size() || !(lambda_min > 0) || !(lambda_max > lambda_min))
    return {nan, nan, nan};
  // Log grid, then golden section on log(lambda) between the neighbours of the best grid point.
  constexpr int grid = 200;
  const double step = std::log(lambda_max / lambda_min) / grid;
  int best = 0;
  double best_rss = std::numeric_limits<double>::infinity(), ps;
  for (int k = 0; k <= grid; ++k) {
    const double rss = janssen_rss(depth, p, lambda_min * std::exp(k * step), ps);
    if (rss < best_rss) best_rss = rss, best = k;
  }
  double a = std::log(lambda_min) + std::max(0, best - 1) * step, b = std::log(lambda_min) + std::min(grid, best + 1) * step;
  const double g = 0.5 * (std::sqrt(5.0) - 1);
  for (int it = 0; it < 60; ++it) {
    const double c = b - g * (b - a), e = a + g * (b - a);
    if (janssen_rss(depth, p, std::exp(c), ps) < janssen_rss(depth, p, std::exp(e), ps)) b = e;
    else a = c;
  }
  JanssenFit f;
  f.lambda = std::exp(0.5 * (a + b));
  const double rss = janssen_rss(depth, p, f.lambda, f.p_sat);
  f.r2 = r_squared(p, rss);
  return f;
}

}  // namespace grainlab
