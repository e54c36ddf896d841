#pragma once
// Mean and sample standard deviation of a run's samples (time-window averages of the drum experiments).
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace grainlab {

/// NaN for no samples.
inline double mean_of(const std::vector<double>& v) {
  return v.empty() ? std::numeric_limits<double>::quiet_NaN() : std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}

/// Sample standard deviation (n - 1); NaN for fewer than two samples.
inline double sd_of(const std::vector<double>& v) {
  if (v.size() < 2) return std::numeric_limits<double>::quiet_NaN();
  const double m = mean_of(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / double(v.size() - 1));
}

}  // namespace grainlab
