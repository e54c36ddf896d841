#pragma once
// Shape of a pressure profile p(depth) in a container (Paper I Fig. 4, 000 l.612; ledger paper1.md
// P1-C07/C09): a straight-line fit (hydrostatic: p grows linearly with depth) and a Janssen fit
// p = p_sat (1 - exp(-depth/lambda)) (saturation with depth). Both least squares, unweighted.
// The Janssen fit is exact for p_sat at a given lambda (linear least squares) and searches lambda on a
// log grid from lambda_min to lambda_max, then by golden section around the best grid point; a profile
// that is still straight gives lambda at (or near) lambda_max.
// Pure functions.
#include <span>

namespace grainlab {

struct LineFit {
  double intercept = 0, slope = 0, r2 = 0;  ///< r2 = 1 - RSS/TSS (NaN when y is constant or n < 2)
};
/// y = intercept + slope x. NaN fields when fewer than 2 points or x is constant.
LineFit fit_line(std::span<const double> x, std::span<const double> y);

struct JanssenFit {
  double p_sat = 0, lambda = 0, r2 = 0;
};
/// p = p_sat (1 - exp(-depth/lambda)), lambda in [lambda_min, lambda_max] (> 0). NaN fields when fewer
/// than 2 points.
JanssenFit fit_janssen(std::span<const double> depth, std::span<const double> p, double lambda_min, double lambda_max);

}  // namespace grainlab
