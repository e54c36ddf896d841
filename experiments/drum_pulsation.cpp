// Surface pulsation statistics: see drum_pulsation.hpp.
#include "experiments/drum_pulsation.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace grainlab {

PulsationStats pulsation_stats(std::span<const double> signal, double interval) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::size_t n = signal.size();
  if (n < 4) return {nan, nan};
  // Least-squares line through (i, signal[i]).
  const double mi = 0.5 * double(n - 1);
  double my = 0;
  for (double y : signal) my += y;
  my /= double(n);
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sxy += (double(i) - mi) * (signal[i] - my);
    sxx += (double(i) - mi) * (double(i) - mi);
  }
  const double slope = sxy / sxx;
  std::vector<double> r(n);
  double var = 0;
  for (std::size_t i = 0; i < n; ++i) {
    r[i] = signal[i] - my - slope * (double(i) - mi);
    var += r[i] * r[i];
  }
  if (!(var > 0)) return {0.0, nan};
  const double sd = std::sqrt(var / double(n - 1));
  for (std::size_t lag = 1; lag < n / 2; ++lag) {
    double c = 0;
    for (std::size_t i = 0; i + lag < n; ++i) c += r[i] * r[i + lag];
    if (c <= 0) return {sd, 4.0 * double(lag) * interval};
  }
  return {sd, 4.0 * double(n / 2) * interval};  // no decorrelation within half the window: a lower bound
}

}  // namespace grainlab
