#pragma once
// Comparing two per-iteration convergence curves of a PGS solve (Paper IV E2b: Fig. 7 multiplier error,
// Fig. 8 mean residual; 000 l.1666-1679) and summarising per-row residuals (Fig. 9). Curves are indexed by
// the iteration k = 1 ... N (element k - 1). Pure functions.
#include <span>
#include <vector>

#include "core/io/contact_histogram.hpp"

namespace grainlab {

/// a[k-1] / b[k-1]; NaN when k is outside either curve or b[k-1] = 0.
double curve_ratio_at(std::span<const double> a, std::span<const double> b, int k);

struct CurveRatioRange {
  double min = 0, max = 0;  ///< of a/b over k in [first, last]; NaN when a term is NaN or out of range
  int argmin = 0, argmax = 0;
};
/// Smallest and largest a/b over the iterations first ... last (1-based, inclusive).
CurveRatioRange curve_ratio_range(std::span<const double> a, std::span<const double> b, int first, int last);

/// Slope of log10 y against k over k = first ... last (least squares; experiments/janssen_fit.hpp): decades
/// per iteration, < 0 when the curve falls. NaN when a value is not > 0 or fewer than 2 points.
double log10_slope(std::span<const double> y, int first, int last);

double mean_value(std::span<const double> v);  ///< NaN when empty

/// Histogram of log10 |r| of the values with r != 0 on the fixed `axis`; `zeros` gets how many were 0.
io::Histogram log10_histogram(std::span<const double> values, const io::HistogramAxis& axis, std::size_t& zeros);

/// Shared log10 range for histograms of several sets: [floor(min), ceil(max)] of log10 of their non-zero
/// values, bins of `bins_per_decade` per decade. [-1, 0] when every value is 0.
io::HistogramAxis log10_axis(const std::vector<std::span<const double>>& sets, int bins_per_decade);

}  // namespace grainlab
