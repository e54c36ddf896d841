#include "experiments/convergence_curves.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "experiments/janssen_fit.hpp"

namespace grainlab {

namespace {
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
}

double curve_ratio_at(std::span<const double> a, std::span<const double> b, int k) {
  if (k < 1 || std::size_t(k) > a.size() || std::size_t(k) > b.size() || b[k - 1] == 0) return nan;
  return a[k - 1] / b[k - 1];
}

CurveRatioRange curve_ratio_range(std::span<const double> a, std::span<const double> b, int first, int last) {
  CurveRatioRange r{nan, nan, 0, 0};
  if (first < 1 || last < first) return r;
  for (int k = first; k <= last; ++k) {
    const double x = curve_ratio_at(a, b, k);
    if (!std::isfinite(x)) return CurveRatioRange{nan, nan, k, k};
    if (k == first || x < r.min) r.min = x, r.argmin = k;
    if (k == first || x > r.max) r.max = x, r.argmax = k;
  }
  return r;
}

double log10_slope(std::span<const double> y, int first, int last) {
  if (first < 1 || last <= first || std::size_t(last) > y.size()) return nan;
  std::vector<double> k, ly;
  for (int i = first; i <= last; ++i) {
    if (!(y[i - 1] > 0)) return nan;
    k.push_back(i);
    ly.push_back(std::log10(y[i - 1]));
  }
  return fit_line(k, ly).slope;
}

double mean_value(std::span<const double> v) {
  return v.empty() ? nan : std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

io::Histogram log10_histogram(std::span<const double> values, const io::HistogramAxis& axis, std::size_t& zeros) {
  std::vector<double> logs;
  zeros = 0;
  for (double v : values) {
    if (v == 0)
      ++zeros;
    else
      logs.push_back(std::log10(std::abs(v)));
  }
  return io::make_histogram(logs, axis);
}

io::HistogramAxis log10_axis(const std::vector<std::span<const double>>& sets, int bins_per_decade) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& s : sets)
    for (double v : s)
      if (v != 0) {
        lo = std::min(lo, std::log10(std::abs(v)));
        hi = std::max(hi, std::log10(std::abs(v)));
      }
  io::HistogramAxis axis;
  axis.automatic = false;
  axis.lower = std::isfinite(lo) ? std::floor(lo) : -1.0;
  axis.upper = std::isfinite(hi) ? std::max(std::ceil(hi), axis.lower + 1.0) : 0.0;
  axis.bins = std::max(1, int(std::lround((axis.upper - axis.lower) * bins_per_decade)));
  return axis;
}

}  // namespace grainlab
