#include "experiments/mbd_hopper_measures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace grainlab {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// Trailing difference of a cumulative count over `window` seconds, per second.
std::vector<double> trailing_rate(const std::vector<double>& t, const std::vector<double>& c, double window) {
  std::vector<double> r(t.size(), 0);
  std::size_t j = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    while (j < i && t[j] < t[i] - window - 1e-12) ++j;
    const double span = t[i] - t[j];
    r[i] = span > 0 ? (c[i] - c[j]) / span : 0;
  }
  return r;
}

std::vector<double> ranks(const std::vector<double>& v) {
  std::vector<std::size_t> idx(v.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::sort(idx.begin(), idx.end(), [&](auto a, auto b) { return v[a] < v[b]; });
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < idx.size();) {
    std::size_t j = i;
    while (j + 1 < idx.size() && v[idx[j + 1]] == v[idx[i]]) ++j;
    for (std::size_t k = i; k <= j; ++k) r[idx[k]] = 0.5 * double(i + j);
    i = j + 1;
  }
  return r;
}

}  // namespace

DischargeStats discharge_stats(const DischargeFrames& f, double window, double near_jam_fraction,
                               double near_jam_duration) {
  DischargeStats s;
  const std::size_t n = f.time.size();
  s.rate = trailing_rate(f.time, f.removed, window);
  std::vector<double> lr(n);
  for (std::size_t i = 0; i < n; ++i) lr[i] = f.left[i] - f.right[i];
  s.left_minus_right = trailing_rate(f.time, lr, window);
  s.first = s.last = nan;
  for (std::size_t i = 0; i < n; ++i)
    if (f.removed[i] > (i ? f.removed[i - 1] : 0)) {
      if (std::isnan(s.first)) s.first = f.time[i];
      s.last = f.time[i];
    }
  s.flowing.assign(n, 0);
  if (std::isnan(s.first)) return s.mean_rate = s.rate_cv = nan, s;
  double sum = 0, sq = 0;
  int m = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (f.time[i] >= s.first + window && f.time[i] <= s.last) {
      s.flowing[i] = 1;
      sum += s.rate[i], sq += s.rate[i] * s.rate[i], ++m;
    }
  if (m < 2) return s.mean_rate = s.rate_cv = nan, s;
  s.mean_rate = sum / m;
  s.rate_cv = std::sqrt(std::max(0.0, sq / m - s.mean_rate * s.mean_rate)) / s.mean_rate;
  double below_since = nan;
  int sign = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!s.flowing[i]) continue;
    const bool low = s.rate[i] < near_jam_fraction * s.mean_rate;
    if (low && std::isnan(below_since)) below_since = f.time[i];
    if (!low && !std::isnan(below_since)) {
      if (f.time[i] - below_since >= near_jam_duration) ++s.near_jams;
      below_since = nan;
    }
    const double d = s.left_minus_right[i];
    const int now = d > 0 ? 1 : d < 0 ? -1 : 0;
    if (now != 0) {
      if (sign != 0 && now != sign) ++s.sign_changes;
      sign = now;
    }
  }
  return s;
}

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = std::min(x.size(), y.size());
  if (n < 3) return nan;
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
  mx /= double(n), my /= double(n);
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sxy += (x[i] - mx) * (y[i] - my), sxx += (x[i] - mx) * (x[i] - mx), syy += (y[i] - my) * (y[i] - my);
  }
  return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : nan;
}

double spearman(const std::vector<double>& x, const std::vector<double>& y) { return pearson(ranks(x), ranks(y)); }

}  // namespace grainlab
